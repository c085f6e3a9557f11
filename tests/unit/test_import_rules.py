"""The import rules cover the whole package: every package's modules are checked for cycles, type hints included."""

from __future__ import annotations

import tomllib
from pathlib import Path

import grimp

REPO = Path(__file__).resolve().parents[2]


def _config() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]


def test_imports_under_type_checking_count() -> None:
    assert _config()["exclude_type_checking_imports"] is False


def test_every_package_is_checked_for_cycles_between_its_modules() -> None:
    graph = grimp.build_graph("workbench", exclude_type_checking_imports=False)
    packages = {module for module in graph.modules if module.startswith("workbench") and graph.find_children(module)}
    (acyclic,) = [c for c in _config()["contracts"] if c["type"] == "acyclic_siblings"]
    assert set(acyclic["ancestors"]) == packages  # a new package is added to the contract
