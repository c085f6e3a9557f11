#!/usr/bin/env bash
# Build Agent Workbench as a one-folder app with PyInstaller (dist/workbench/) and prove the result starts.
# Slow (about a minute); not part of `make test`. Usage: packaging/build.sh [--check-only]
#   --check-only   skip the build, only run the start checks on an existing dist/workbench/workbench
# Environment: VENV (default .venv), DIST (default dist), WORK (default build/pyinstaller).
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$ROOT" || exit 2
VENV=${VENV:-.venv}
DIST=${DIST:-dist}
WORK=${WORK:-build/pyinstaller}
PY="$VENV/bin/python"
APP="$DIST/workbench/workbench"
LOG="build/pyinstaller.log"
CHECK_ONLY=0
case "${1:-}" in
  --check-only) CHECK_ONLY=1 ;;
  "") ;;
  *) echo "usage: packaging/build.sh [--check-only]" >&2; exit 2 ;;
esac

now_ms() { date +%s%3N; }

# 1. The build venv: the project's own .venv (created by `make env` when missing), plus PyInstaller,
#    which is a build-time tool only (the optional extra `packaging`), installed only when missing.
if [ "$CHECK_ONLY" = 0 ]; then
  if [ ! -x "$PY" ]; then
    echo "== creating $VENV (make env)"
    make --no-print-directory env VENV="$VENV" || { echo "error: could not create $VENV" >&2; exit 1; }
  fi
  if ! "$PY" -c "import PyInstaller" >/dev/null 2>&1; then
    echo "== installing PyInstaller into $VENV (build-time only)"
    "$PY" -m pip install --quiet "pyinstaller>=6" || { echo "error: pip could not install pyinstaller" >&2; exit 1; }
  fi
  echo "== PyInstaller $("$PY" -m PyInstaller --version) on $("$PY" --version)"

  # 2. Build.
  mkdir -p "$(dirname "$LOG")"
  echo "== building $APP (log: $LOG)"
  t0=$(now_ms)
  if ! "$PY" -m PyInstaller --noconfirm --clean --log-level WARN \
      --distpath "$DIST" --workpath "$WORK" packaging/workbench.spec >"$LOG" 2>&1; then
    tail -n 40 "$LOG" >&2
    echo "error: PyInstaller failed (full log: $LOG)" >&2
    exit 1
  fi
  build_s=$(( ($(now_ms) - t0) / 1000 ))
  echo "build time: ${build_s} s (load average: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo n/a))"
fi

if [ ! -x "$APP" ]; then
  echo "error: $APP does not exist; run packaging/build.sh without --check-only" >&2
  exit 1
fi
size_mb=$(du -sm "$DIST/workbench" | cut -f1)
files=$(find "$DIST/workbench" -type f | wc -l)
echo "bundle size: ${size_mb} MB in ${files} files ($DIST/workbench)"

# 3. Start checks, headless. Each prints PASS/FAIL; the script fails if any check fails.
export QT_QPA_PLATFORM=offscreen
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
failures=0
pass() { echo "PASS  $1"; }
fail() { echo "FAIL  $1"; failures=$((failures + 1)); }

# 3a. --version
t0=$(now_ms)
out=$(timeout 60 "$APP" --version 2>"$TMP/version.err"); rc=$?
if [ "$rc" = 0 ] && [[ "$out" =~ ^workbench\ [0-9] ]]; then
  pass "--version: '$out' in $(( $(now_ms) - t0 )) ms"
else
  fail "--version: exit $rc, output '$out'"; tail -n 20 "$TMP/version.err"
fi

# 3b. --smoke-test: shows the start-up frame ('window shown in N ms'), then the main window in its place
# ('window ready in N ms'), and exits 0.
t0=$(now_ms)
out=$(timeout 120 "$APP" --smoke-test 2>"$TMP/smoke.err"); rc=$?
if [ "$rc" = 0 ] && [[ "$out" =~ window\ shown\ in\ [0-9]+\ ms.*window\ ready\ in\ [0-9]+\ ms ]]; then
  pass "--smoke-test: '$(echo $out)', process done in $(( $(now_ms) - t0 )) ms"
else
  fail "--smoke-test: exit $rc, output '$out'"; tail -n 20 "$TMP/smoke.err"
fi

# 3c. demo --headless: serves the demo agents; wait for its first line, then SIGTERM must end it with 0.
#     `timeout` bounds the whole run (and forwards our SIGTERM to the app).
mkfifo "$TMP/demo.out"
t0=$(now_ms)
timeout -k 5 120 "$APP" demo --headless >"$TMP/demo.out" 2>"$TMP/demo.err" &
pid=$!
exec 3<"$TMP/demo.out"
if read -r -t 60 first <&3; then
  first_ms=$(( $(now_ms) - t0 ))
  kill -TERM "$pid"
  cat <&3 >/dev/null  # drain until the app closes stdout (it exits)
  wait "$pid"; rc=$?
  if [ "$rc" = 0 ]; then
    pass "demo --headless: first line after ${first_ms} ms ('${first%% *}…'), SIGTERM -> exit 0"
  else
    fail "demo --headless: first line after ${first_ms} ms, but SIGTERM -> exit $rc"; tail -n 20 "$TMP/demo.err"
  fi
else
  kill -TERM "$pid" 2>/dev/null
  wait "$pid"; rc=$?
  fail "demo --headless: no output line within 60 s (exit $rc)"; tail -n 20 "$TMP/demo.err"
fi
exec 3<&-

# 3d. The bundled CLI talks MCP over stdio to the bundled demo server, started as `workbench -m ...`
#     (the runtime hook packaging/rthook_run_module.py makes `-m workbench.*` work in the frozen binary).
t0=$(now_ms)
out=$(timeout 120 "$APP" inspect --json --stdio -- "$APP" -m workbench.demo.mcp_server --stdio 2>"$TMP/stdio.err"); rc=$?
if [ "$rc" = 0 ] && [[ "$out" == *'"name": "workbench-demo"'* ]]; then
  pass "inspect --stdio -- workbench -m workbench.demo.mcp_server: handshake + discovery in $(( $(now_ms) - t0 )) ms"
else
  fail "inspect --stdio of the bundled demo MCP server: exit $rc"; tail -n 20 "$TMP/stdio.err"
fi

echo "== summary: bundle ${size_mb} MB${build_s:+, build ${build_s} s}, $failures failed check(s)"
[ "$failures" = 0 ]
