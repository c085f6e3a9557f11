"""Print the architecture figures the closing notes quote: import cycles, class sizes, forwarding, long modules.

Run from a checkout: `.venv/bin/python tools/arch_figures.py [--root DIR]`. Figures:

- cycles: strongly connected groups of modules in `workbench`, imports under `TYPE_CHECKING` included
  (an import of a package's own descendants from its `__init__` is a re-export, not a cycle, and is left out);
  and, per package, cycles between its direct children (what import-linter's `acyclic_siblings` checks);
- the public members of each class in `workbench.core.protocols` (inherited from the package's own classes
  included; dunders and what a base from outside the package, such as `str` or pydantic's `BaseModel`, brings
  left out);
- forwarding functions: a function whose body, after its docstring, is one `return self.<attr>...(...)`
  or `return self.<attr>.<name>` — the lines they take;
- modules over 500 lines.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import inspect
import sys
from collections import defaultdict
from pathlib import Path

import grimp


def _strongly_connected(nodes: set[str], edges: dict[str, set[str]]) -> list[list[str]]:
    """Tarjan's algorithm, iterative: the groups of more than one node that reach each other."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    counter = 0
    for root in sorted(nodes):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, ()))))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(edges.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    groups.append(sorted(group))
    return groups


def module_cycles(graph: grimp.ImportGraph) -> list[list[str]]:
    """Groups of modules that import each other, TYPE_CHECKING imports included, re-exports left out."""
    modules = {m for m in graph.modules if m.startswith("workbench")}
    edges: dict[str, set[str]] = defaultdict(set)
    for module in modules:
        for imported in graph.find_modules_directly_imported_by(module):
            if imported in modules and not imported.startswith(module + "."):
                edges[module].add(imported)
    return _strongly_connected(modules, edges)


def sibling_cycles(graph: grimp.ImportGraph) -> dict[str, list[list[str]]]:
    """Per package: groups of its direct children that import each other (directly or through descendants)."""
    modules = {m for m in graph.modules if m.startswith("workbench")}
    packages = {m for m in modules if graph.find_children(m)}
    found: dict[str, list[list[str]]] = {}
    for package in sorted(packages):
        children = graph.find_children(package)

        def owner(module: str, children: set[str] = children) -> str | None:
            for child in children:
                if module == child or module.startswith(child + "."):
                    return child
            return None

        edges: dict[str, set[str]] = defaultdict(set)
        for module in modules:
            source = owner(module)
            if source is None:
                continue
            for imported in graph.find_modules_directly_imported_by(module):
                target = owner(imported)
                if target is not None and target != source:
                    edges[source].add(target)
        groups = _strongly_connected(set(children), edges)
        if groups:
            found[package] = groups
    return found


def class_members(package: str = "workbench.core.protocols") -> list[tuple[int, str]]:
    """(public member count, qualified name) for every class defined under `package`, largest first."""
    root = importlib.import_module(package)
    sizes: list[tuple[int, str]] = []
    for path in sorted(Path(root.__file__).parent.rglob("*.py")):  # type: ignore[arg-type]
        relative = path.relative_to(Path(root.__file__).parent).with_suffix("")  # type: ignore[arg-type]
        parts = [p for p in relative.parts if p != "__init__"]
        name = ".".join([package, *parts])
        module = importlib.import_module(name)
        for attr, value in vars(module).items():
            if inspect.isclass(value) and value.__module__ == name:
                inherited = set(dir(object))
                for ancestor in value.__mro__[1:]:
                    if not ancestor.__module__.startswith("workbench"):
                        inherited |= set(dir(ancestor))
                public = [n for n in dir(value) if not n.startswith("_") and n not in inherited]
                sizes.append((len(public), f"{name}.{attr}"))
    return sorted(sizes, reverse=True)


def _is_forwarding(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    body = function.body
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    if len(body) != 1:
        return False
    statement = body[0]
    value = statement.value if isinstance(statement, ast.Return | ast.Expr) else None
    if isinstance(value, ast.Await):
        value = value.value
    if isinstance(value, ast.Call):
        value = value.func
    if not isinstance(value, ast.Attribute):
        return False
    inner = value.value
    return isinstance(inner, ast.Attribute) and isinstance(inner.value, ast.Name) and inner.value.id == "self"


def forwarding(root: Path) -> tuple[int, int, list[tuple[int, str]]]:
    """(functions, lines, the files with most forwarding lines) under workbench/core/protocols."""
    count = lines = 0
    per_file: dict[str, int] = defaultdict(int)
    for path in sorted((root / "workbench/core/protocols").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and _is_forwarding(node):
                size = (node.end_lineno or node.lineno) - node.lineno + 1 + len(node.decorator_list)
                count += 1
                lines += size
                per_file[str(path.relative_to(root))] += size
    return count, lines, sorted(((v, k) for k, v in per_file.items()), reverse=True)[:8]


def long_modules(root: Path, limit: int = 500) -> list[tuple[int, str]]:
    """(lines, path) of every module of the package over `limit` lines."""
    found = []
    for path in sorted((root / "workbench").rglob("*.py")):
        count = len(path.read_text(encoding="utf-8").splitlines())
        if count > limit:
            found.append((count, str(path.relative_to(root))))
    return sorted(found, reverse=True)


def main() -> None:
    """Print every figure."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path.cwd())
    root = parser.parse_args().root.resolve()
    sys.path.insert(0, str(root))
    graph = grimp.build_graph("workbench", exclude_type_checking_imports=False)
    plain = grimp.build_graph("workbench", exclude_type_checking_imports=True)
    print("== module cycles (TYPE_CHECKING included / excluded):", end=" ")
    with_tc, without_tc = module_cycles(graph), module_cycles(plain)
    print(f"{len(with_tc)} / {len(without_tc)}")
    for group in with_tc:
        print("   ", " <-> ".join(group))
    siblings = sibling_cycles(graph)
    print(f"== packages with cycles between their children (TYPE_CHECKING included): {len(siblings)}")
    for package, groups in siblings.items():
        for group in groups:
            print(f"    {package}: {' <-> '.join(m.rsplit('.', 1)[1] for m in group)}")
    print("== classes in workbench.core.protocols with most public members (inherited included)")
    for size, name in class_members()[:8]:
        print(f"    {size:3d}  {name}")
    count, lines, files = forwarding(root)
    print(f"== forwarding functions in core/protocols: {count}, {lines} lines")
    for size, name in files:
        print(f"    {size:4d}  {name}")
    print("== modules over 500 lines")
    for size, name in long_modules(root):
        print(f"    {size:4d}  {name}")


if __name__ == "__main__":
    main()
