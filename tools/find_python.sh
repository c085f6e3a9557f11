#!/usr/bin/env bash
# Prints the path of a Python >= 3.12 interpreter, or explains what to do and fails.
# PySide6 6.12 on Python 3.11 corrupts None's refcount and aborts a qasync app, so 3.11 is refused.
set -u
ok() { "$1" -c 'import sys; sys.exit(0 if sys.version_info >= (3, 12) else 1)' >/dev/null 2>&1; }
for candidate in "${PYTHON:-}" python3 python3.13 python3.12; do
  [ -n "$candidate" ] || continue
  path=$(command -v "$candidate" 2>/dev/null) || continue
  if ok "$path"; then "$path" -c 'import sys; print(sys.executable)'; exit 0; fi
done
found=$(python3 --version 2>&1 || echo "no python3")
cat >&2 <<MSG
Agent Workbench needs Python 3.12 or newer; found: $found.
  - with pyenv: 'pyenv install 3.12' (this repository's .python-version selects 3.12), or
  - install python3.12 from your system's packages, or
  - point to one explicitly: make PYTHON=/path/to/python3.12 test
MSG
exit 1
