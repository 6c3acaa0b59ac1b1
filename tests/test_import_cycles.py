"""The project's own modules import each other without cycles (design.md, house style).

The graph is built from the source (no code runs): an edge for every import of a project
module, those under ``TYPE_CHECKING`` included (they tie the modules just the same), and a
package's ``__init__`` re-exporting its own submodules is not counted as an edge.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "rooms", "server", "client", "bench", "cli")


def module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_names(module: str, is_package: bool, tree: ast.AST) -> Iterable[str]:
    """Every dotted name an import in ``tree`` may refer to (a module, or a module's name)."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                target = node.module or ""
            else:  # relative: from the module's package, one level up per extra dot
                base = module if is_package else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    base = base.rpartition(".")[0]
                target = f"{base}.{node.module}" if node.module else base
            yield target
            yield from (f"{target}.{alias.name}" for alias in node.names)


def module_graph(root: Path, packages: Iterable[str]) -> dict[str, set[str]]:
    paths = {
        module_name(path, root): path
        for package in packages
        for path in sorted((root / package).rglob("*.py"))
    }
    graph: dict[str, set[str]] = {}
    for module, path in paths.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(), filename=str(path))
        targets = {name for name in imported_names(module, is_package, tree) if name in paths}
        if is_package:  # re-exports of its own submodules
            targets = {name for name in targets if not name.startswith(module + ".")}
        graph[module] = targets - {module}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for succ in sorted(graph.get(node, ())):
            if succ not in index:
                visit(succ)
                low[node] = min(low[node], low[succ])
            elif succ in on_stack:
                low[node] = min(low[node], index[succ])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def test_the_project_has_no_import_cycle() -> None:
    found = cycles(module_graph(ROOT, PACKAGES))
    assert not found, "import cycles: " + "; ".join(" <-> ".join(c) for c in found)


def test_the_checker_names_a_cycle(tmp_path: Path) -> None:
    """A test that cannot fail proves nothing: a planted cycle is found and named."""
    package = tmp_path / "pkg"
    (package / "sub").mkdir(parents=True)
    (package / "__init__.py").write_text("from .a import A\n")
    (package / "a.py").write_text("from pkg.sub.b import B\nA = 1\n")
    (package / "sub" / "__init__.py").write_text("")
    (package / "sub" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from ..a import A\nB = 2\n"
    )
    (package / "c.py").write_text("from . import a\n")
    assert cycles(module_graph(tmp_path, ["pkg"])) == [["pkg.a", "pkg.sub.b"]]
