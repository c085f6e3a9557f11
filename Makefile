# Agent Workbench: the two set-up commands of the README are `make demo` and `make test`.
# `make demo` opens the window on the bundled demo agents. Each creates what it needs (a Python >= 3.12 virtual environment in .venv; for the tests also the
# reference MCP server from npm in .cache/npm) and then runs.

SHELL := /bin/bash
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
NPM_PREFIX := .cache/npm
EVERYTHING := @modelcontextprotocol/server-everything@2026.8.31
EVERYTHING_STAMP := $(NPM_PREFIX)/.installed-2026.8.31
# The JS SDK's A2A agents (tests/servers/a2a_js_agent_*.mjs): 1.3.0 speaks A2A 1.0, 0.3.14 speaks 0.3.
A2A_JS_PACKAGES := @a2a-js/sdk@1.3.0=a2a-js-1.3.0 @a2a-js/sdk@0.3.14=a2a-js-0.3.14
A2A_JS_STAMP := $(NPM_PREFIX)/.installed-a2a-js-1.3.0-0.3.14
# More reference MCP servers as CLI test peers (tests/support/peers.py, tests/e2e/peers/): the npm ones in
# their own prefix (one install), each PyPI one in its own venv under .cache/pypeers (they pin their own `mcp`,
# so never in .venv). A peer that is not installed is skipped with the reason.
NPM_PEERS_PREFIX := $(NPM_PREFIX)/mcp-peers
NPM_PEERS := @modelcontextprotocol/server-filesystem@2026.8.31 @modelcontextprotocol/server-memory@2026.8.31 \
  @modelcontextprotocol/server-sequential-thinking@2026.8.31
NPM_PEERS_STAMP := $(NPM_PEERS_PREFIX)/.installed-2026.8.31
PYPEERS_DIR := .cache/pypeers
PYPEERS := fetch=mcp-server-fetch==2026.10.24 git=mcp-server-git==2026.10.19 time=mcp-server-time==2026.10.19
PYPEERS_STAMP := $(PYPEERS_DIR)/.installed-fetch-2026.10.24-git-2026.10.19-time-2026.10.19
# The Node MCP Inspector CLI, a contender in bench/http_inspect.py only (make bench), in its own prefix.
INSPECTOR := @modelcontextprotocol/inspector@2.12.0
INSPECTOR_PREFIX := $(NPM_PREFIX)/inspector-2.12.0
INSPECTOR_STAMP := $(INSPECTOR_PREFIX)/.installed

.PHONY: demo test lint typecheck imports unit env bench clean

env: $(STAMP)

$(STAMP): pyproject.toml tools/find_python.sh
	@set -e; PYTHON_BIN="$$(bash tools/find_python.sh)"; \
	  echo "Creating $(VENV) with $$PYTHON_BIN ($$($$PYTHON_BIN --version))"; \
	  rm -rf $(VENV); "$$PYTHON_BIN" -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/workbench demo

$(EVERYTHING_STAMP):
	@if command -v npm >/dev/null 2>&1; then \
	  mkdir -p $(NPM_PREFIX) && npm install --silent --no-audit --no-fund --prefix $(NPM_PREFIX) $(EVERYTHING) \
	  && touch $(EVERYTHING_STAMP); \
	else echo "npm not found: tests against server-everything will be skipped"; fi

$(A2A_JS_STAMP):
	@if command -v npm >/dev/null 2>&1; then \
	  for item in $(A2A_JS_PACKAGES); do \
	    mkdir -p $(NPM_PREFIX)/$${item#*=} && npm install --silent --no-audit --no-fund \
	      --prefix $(NPM_PREFIX)/$${item#*=} $${item%=*} express@5.3.0 || exit 1; \
	  done && touch $(A2A_JS_STAMP); \
	else echo "npm not found: tests against the JS SDK's A2A agents will be skipped"; fi

$(NPM_PEERS_STAMP):
	@if command -v npm >/dev/null 2>&1; then \
	  mkdir -p $(NPM_PEERS_PREFIX) && npm install --silent --no-audit --no-fund --save-exact \
	    --prefix $(NPM_PEERS_PREFIX) $(NPM_PEERS) && touch $(NPM_PEERS_STAMP); \
	else echo "npm not found: tests against the npm reference servers will be skipped"; fi

$(PYPEERS_STAMP): tools/find_python.sh
	@set -e; PYTHON_BIN="$$(bash tools/find_python.sh)"; pids=""; \
	  for item in $(PYPEERS); do \
	    dir=$(PYPEERS_DIR)/$${item%%=*}; rm -rf $$dir; \
	    ( "$$PYTHON_BIN" -m venv $$dir && $$dir/bin/pip install --quiet --disable-pip-version-check $${item#*=} \
	      || { rm -rf $$dir; echo "installing $${item#*=} into $$dir failed"; exit 1; } ) & pids="$$pids $$!"; \
	  done; for pid in $$pids; do wait $$pid; done; touch $(PYPEERS_STAMP)

lint: $(STAMP)
	$(VENV)/bin/ruff check workbench tests bench tools resources packaging
	$(VENV)/bin/ruff format --check workbench tests bench tools resources packaging

typecheck: $(STAMP)
	$(VENV)/bin/mypy

imports: $(STAMP)
	$(VENV)/bin/lint-imports

test: $(STAMP) $(EVERYTHING_STAMP) $(A2A_JS_STAMP) $(NPM_PEERS_STAMP) $(PYPEERS_STAMP) lint typecheck imports
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/pytest -q -p no:cacheprovider -n 4

$(INSPECTOR_STAMP):
	@if command -v npm >/dev/null 2>&1; then \
	  mkdir -p $(INSPECTOR_PREFIX) && npm install --silent --no-audit --no-fund --prefix $(INSPECTOR_PREFIX) $(INSPECTOR) \
	  && touch $(INSPECTOR_STAMP); \
	else echo "npm not found: bench/http_inspect.py will skip the MCP Inspector CLI"; fi

bench: $(STAMP) $(EVERYTHING_STAMP) $(INSPECTOR_STAMP)
	for b in bench/*.py; do echo "== $$b"; $(PY) $$b || exit 1; done

clean:
	rm -rf $(VENV) .cache .mypy_cache .ruff_cache
