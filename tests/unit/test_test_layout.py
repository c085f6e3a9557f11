"""Test modules share helpers only through ``tests/support``, ``tests/servers`` and conftest files.

A helper defined in one test module and imported by another ties the two together: moving, renaming
or deleting a test breaks its neighbours, and running one module imports (and collects the fixtures
of) another. Every module under ``tests/``, ``bench/`` and ``tools/`` may import from the test tree
only ``tests.support.*``, ``tests.servers.*``, and the ``conftest`` of its own folder or of a folder
above it.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCANNED = ("tests", "bench", "tools")
SHARED = ("tests.support", "tests.servers")
WHERE = "put what several test modules use in tests/support/<what it holds>.py (servers in tests/servers)"


def module_name(path: Path) -> str:
    """The dotted name of ``path`` from the repository root (``tests/ui/conftest.py`` → ``tests.ui.conftest``)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def tree_module(name: str) -> str | None:
    """The module or package of the test tree that the dotted ``name`` loads (its longest prefix that is
    one), else None."""
    parts = name.split(".")
    while len(parts) > 1 and parts[0] == "tests":
        base = ROOT.joinpath(*parts)
        if base.with_suffix(".py").is_file() or base.is_dir():
            return ".".join(parts)
        parts.pop()
    return None


def imports(path: Path, source: str | None = None) -> list[tuple[int, str]]:
    """(line, dotted name) of everything ``path`` (or ``source``, as if it stood there) imports.

    ``from a import b`` gives ``a.b``; relative imports are resolved; a bare name of a file beside
    ``path`` (importable as such when pytest puts that folder on ``sys.path``) is read as a name in
    ``path``'s folder.
    """
    tree = ast.parse(path.read_text(encoding="utf-8") if source is None else source, filename=str(path))
    package = module_name(path).split(".")[:-1]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package[: len(package) - node.level + 1]
                stem = ".".join([*base, node.module] if node.module else base)
            else:
                stem = node.module or ""
            names = [f"{stem}.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            if (path.parent / f"{name.split('.')[0]}.py").is_file():
                name = ".".join([*package, name])
            found.append((node.lineno, name))
    return found


def allowed(importer: str, module: str) -> bool:
    """Whether the module named ``importer`` may import ``module`` of the test tree."""
    if any(module == shared or module.startswith(shared + ".") for shared in SHARED):
        return True
    parts = module.split(".")
    if parts[-1] == "conftest":
        return importer.split(".")[: len(parts) - 1] == parts[:-1]  # its own folder's conftest or one above
    return False


def violations(path: Path, source: str | None = None) -> list[str]:
    """``file:line imports module`` for every import of the test tree in ``path`` that the rule forbids."""
    importer = module_name(path)
    found = []
    for line, name in imports(path, source):
        module = tree_module(name)
        if module is not None and not allowed(importer, module):
            found.append(f"{path.relative_to(ROOT)}:{line} imports {module}")
    return sorted(set(found))


def test_no_module_imports_a_helper_from_another_test_module() -> None:
    paths = sorted(p for folder in SCANNED for p in (ROOT / folder).rglob("*.py") if "__pycache__" not in p.parts)
    found = [v for path in paths for v in violations(path)]
    assert not found, WHERE + ":\n" + "\n".join(found)


def test_the_rule_refuses_test_modules_and_helpers_kept_beside_them_and_allows_support_servers_conftest() -> None:
    probe = ROOT / "tests" / "ui" / "test_layout_probe.py"  # a name only: nothing is read or written there
    cases = {
        "from tests.ui.test_window_layout import LAPTOP": False,
        "import tests.e2e.test_cli": False,
        "from tests.ui import test_window_layout": False,
        "from .test_window_layout import LAPTOP": False,
        "from test_window_layout import LAPTOP": False,
        "from tests.integration.mcp.conftest import WITH_STDIO": False,
        "from tests.ui.conftest import qloop": True,
        "from tests.ui import conftest": True,
        "from tests.conftest import fail_on_unexpected_error_logs": True,
        "from tests.support.cli_runner import workbench": True,
        "from tests.servers import script_path": True,
        "from tests import servers": True,
        "from workbench.core.events import EventBus": True,
    }
    for source, ok in cases.items():
        assert (not violations(probe, source)) is ok, source
