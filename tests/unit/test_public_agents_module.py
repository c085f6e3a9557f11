"""``workbench.agents`` loads an adapter only when one of its names is used, and offers every name it lists."""

from __future__ import annotations

import ast
import inspect
import subprocess
import sys

import pytest

import workbench.agents as agents

NOT_FOR_AN_MCP_CLIENT = ("a2a", "google.protobuf", "grpc", "PySide6", "workbench.core.protocols.a2a")
NOT_FOR_AN_A2A_CLIENT = ("mcp", "workbench.core.protocols.mcp", "PySide6")


def _loaded_after(statement: str, prefixes: tuple[str, ...]) -> list[str]:
    """The modules starting with one of ``prefixes`` that a fresh interpreter holds after ``statement``."""
    probe = (
        f"import sys\n{statement}\n"
        f"print('\\n'.join(m for m in sys.modules if any(m == p or m.startswith(p + '.') for p in {prefixes!r})))"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, check=True)
    return out.stdout.split()


def test_an_mcp_client_loads_neither_the_a2a_sdk_nor_qt() -> None:
    statement = "from workbench.agents import MCPAgent, MemoryCredentialStore, OAuth, WorkbenchError"
    assert _loaded_after(statement, NOT_FOR_AN_MCP_CLIENT) == []


def test_an_a2a_client_loads_neither_the_mcp_sdk_nor_qt() -> None:
    assert _loaded_after("from workbench.agents import A2AAgent, WorkbenchError", NOT_FOR_AN_A2A_CLIENT) == []


def test_every_listed_name_resolves_to_the_object_its_module_defines() -> None:
    for name in agents.__all__:
        module = sys.modules.get(agents._SOURCES[name]) or __import__(agents._SOURCES[name], fromlist=[name])
        assert getattr(agents, name) is getattr(module, name), name


def test_the_listed_names_the_lazy_table_and_the_type_checking_imports_agree() -> None:
    tree = ast.parse(inspect.getsource(agents))
    (guard,) = [node for node in tree.body if isinstance(node, ast.If)]  # the `if TYPE_CHECKING:` block
    typed = {alias.name: node.module for node in guard.body if isinstance(node, ast.ImportFrom) for alias in node.names}
    assert typed == agents._SOURCES
    assert set(agents.__all__) == set(agents._SOURCES)
    assert set(agents.__all__) <= set(dir(agents))


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError):
        agents.NoSuchAgent  # noqa: B018
    with pytest.raises(ImportError):
        exec("from workbench.agents import NoSuchAgent", {})
