"""Import rules of the workbench, checked on every `make test` (exit 1 on a violation).

Rules (module prefixes; a rule applies to every module under its "where"):
  1. workbench.core never imports PySide6, qasync or workbench.ui (the core is Qt-free).
  2. mcp / mcp_types / httpx2 are imported only by workbench.core.protocols.mcp and workbench.demo
     (httpx2 also by workbench.core.http, the shared HTTP layer).
  3. a2a / httpx / google.protobuf are imported only by workbench.core.protocols.a2a and workbench.demo
     (httpx also by workbench.core.http).
  4. keyring is imported only by workbench.core.credentials.
  5. Nothing under workbench imports workbench.ui except workbench.ui, workbench.app and workbench.cli.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "workbench"

# (forbidden import prefix, allowed only in these module prefixes, rule text)
ONLY_IN: list[tuple[str, tuple[str, ...], str]] = [
    ("mcp", ("workbench.core.protocols.mcp", "workbench.demo"), "mcp SDK only in its adapter"),
    ("mcp_types", ("workbench.core.protocols.mcp", "workbench.demo"), "mcp SDK only in its adapter"),
    (
        "httpx2",
        ("workbench.core.protocols.mcp", "workbench.core.http", "workbench.demo"),
        "httpx2 (MCP's HTTP) only in the MCP adapter and the shared HTTP layer",
    ),
    ("a2a", ("workbench.core.protocols.a2a", "workbench.demo"), "a2a SDK only in its adapter"),
    (
        "httpx",
        ("workbench.core.protocols.a2a", "workbench.core.http", "workbench.demo"),
        "httpx (A2A's HTTP) only in the A2A adapter and the shared HTTP layer",
    ),
    ("google.protobuf", ("workbench.core.protocols.a2a", "workbench.demo"), "protobuf only in the A2A adapter"),
    ("keyring", ("workbench.core.credentials",), "keyring only in the credential store"),
    ("workbench.ui", ("workbench.ui", "workbench.app", "workbench.cli"), "only the app shell imports the UI"),
]
NEVER_IN: list[tuple[str, str, str]] = [
    ("PySide6", "workbench.core", "the core is Qt-free"),
    ("qasync", "workbench.core", "the core is Qt-free"),
    ("workbench.ui", "workbench.core", "the core never imports the UI"),
]


def _matches(name: str, prefix: str) -> bool:
    return name == prefix or name.startswith(prefix + ".")


def _module_name(path: Path) -> str:
    rel = path.relative_to(ROOT.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(tree: ast.AST, module: str) -> list[tuple[int, str]]:
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.split(".")[: -node.level] if node.level else []
                name = ".".join([*base, node.module] if node.module else base)
            else:
                name = node.module or ""
            found.append((node.lineno, name))
    return found


def main() -> int:
    problems: list[str] = []
    for path in sorted(ROOT.rglob("*.py")):
        module = _module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for lineno, name in _imports(tree, module):
            for prefix, allowed, why in ONLY_IN:
                if _matches(name, prefix) and not any(_matches(module, a) for a in allowed):
                    problems.append(f"{path}:{lineno}: imports {name} ({why})")
            for prefix, where, why in NEVER_IN:
                if _matches(name, prefix) and _matches(module, where):
                    problems.append(f"{path}:{lineno}: imports {name} ({why})")
    for p in problems:
        print(p)
    print(f"import rules: {'FAILED' if problems else 'ok'} ({len(problems)} violations)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
