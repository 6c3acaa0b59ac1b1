"""The one-way import rule of the design: core ← rooms ← server ← client ← bench ← cli.

Each layer imports only the layers before it: core only the standard library and itself;
rooms never imports server, Starlette, uvicorn or prometheus_client (it reports through
rooms.common.metrics), and imports redis only inside its Redis backend
(rooms/backends/redis/); server never imports client, bench or cli. The client library
stands apart from the server it talks to: it imports only core, the standard library and
``websockets`` (a program that only plays needs nothing of the server's side); bench and
cli may use it; bench never imports cli (the ``tictactoe`` command on top of all).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STDLIB = set(sys.stdlib_module_names)
REDIS_BACKEND = ROOT / "rooms" / "backends" / "redis"


def imported_modules(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(), filename=str(path))
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: stays inside its own package
                continue
            found.append((node.lineno, node.module or ""))
    return found


def sources(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("path", sources("core"), ids=lambda p: str(p.relative_to(ROOT)))
def test_core_imports_only_stdlib_and_itself(path: Path) -> None:
    for line, name in imported_modules(path):
        top = name.split(".")[0]
        assert top == "core" or top in STDLIB or top == "__future__", (
            f"{path.relative_to(ROOT)}:{line} imports {name!r}; core is standard library only"
        )


@pytest.mark.parametrize("path", sources("rooms"), ids=lambda p: str(p.relative_to(ROOT)))
def test_rooms_never_imports_server_or_web_stack(path: Path) -> None:
    for line, name in imported_modules(path):
        top = name.split(".")[0]
        where = f"{path.relative_to(ROOT)}:{line}"
        assert top not in {"server", "starlette", "uvicorn", "websockets", "prometheus_client"}, (
            f"{where} imports {name!r}; rooms must not depend on the server layer"
        )
        if top == "redis":
            assert REDIS_BACKEND in path.parents, (
                f"{where} imports redis outside rooms/backends/redis/"
            )


CLIENT_MAY_IMPORT = frozenset({"core", "client", "websockets", "__future__"})


@pytest.mark.parametrize("path", sources("client"), ids=lambda p: str(p.relative_to(ROOT)))
def test_client_imports_only_core_and_websockets(path: Path) -> None:
    for line, name in imported_modules(path):
        top = name.split(".")[0]
        assert top in CLIENT_MAY_IMPORT or top in STDLIB, (
            f"{path.relative_to(ROOT)}:{line} imports {name!r}; the client library imports "
            "only core, the standard library and websockets"
        )


LAYERS = ("core", "rooms", "server", "client", "bench", "cli")


@pytest.mark.parametrize(
    "path",
    [path for layer in LAYERS for path in sources(layer)],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_each_layer_imports_only_the_layers_before_it(path: Path) -> None:
    layer = path.relative_to(ROOT).parts[0]
    above = set(LAYERS[LAYERS.index(layer) + 1 :])
    for line, name in imported_modules(path):
        top = name.split(".")[0]
        assert top not in above, (
            f"{path.relative_to(ROOT)}:{line} imports {name!r}; {layer} must not depend on "
            f"{top} (imports run {' ← '.join(LAYERS)})"
        )


def test_layering_checker_sees_imports(tmp_path: Path) -> None:
    """The checker itself must notice a bad import (a test that cannot fail proves nothing)."""
    bad = tmp_path / "bad.py"
    bad.write_text("import starlette\nfrom server.app import create_app\nfrom . import x\n")
    assert [name for _, name in imported_modules(bad)] == ["starlette", "server.app"]


def test_packages_exist() -> None:
    for layer in LAYERS:
        assert sources(layer), f"{layer}/ has no modules"
