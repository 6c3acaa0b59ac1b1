"""docs/architecture.md stays true: every ``file.py:name`` it names is defined in that file,
the path of one move is a numbered list of such steps through at most a dozen project
files, every repository path it names exists, and its module map names every package of
rooms/ and server/."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text()
MAX_FILES = 12
"""Project files the path of one move may pass through (issue 22: a newcomer follows it)."""

_TOP = r"(?:core|rooms|server|bench)"
REFERENCE = re.compile(rf"`({_TOP}/[\w/]+\.py):([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)`")
"""```path/to/file.py:function``` or ```path/to/file.py:Class.method```."""
PATH = re.compile(r"`((?:core|rooms|server|bench|tests|static|docs)/[\w./-]*)`")
"""A repository path in backticks: a file, or a folder when it ends with a slash."""
SOURCE = re.compile(rf"\b({_TOP}/[\w/]+\.py)\b")


def section(title: str) -> str:
    start = DOC.index(f"## {title}\n")
    end = DOC.find("\n## ", start + 1)
    return DOC[start : end if end != -1 else len(DOC)]


def move_path_steps() -> list[str]:
    """The numbered steps of "The path of one move", each with its continuation lines."""
    steps: list[str] = []
    for line in section("The path of one move").splitlines():
        if re.match(r"\d+\. ", line):
            steps.append(line)
        elif steps and line.startswith(" "):
            steps[-1] += "\n" + line
        elif steps:  # the blank line after the list
            break
    return steps


@cache
def _module(path: str) -> ast.Module:
    return ast.parse((ROOT / path).read_text(), filename=path)


def _defined(body: list[ast.stmt]) -> dict[str, ast.stmt]:
    """The names a module or class body defines: functions, classes and assignments, also
    those inside its top-level ``if``/``try`` blocks."""
    found: dict[str, ast.stmt] = {}
    for node in body:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            found[node.name] = node
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    found[target.id] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            found[node.target.id] = node
        elif isinstance(node, ast.If | ast.Try):
            nested = [*node.body, *node.orelse]
            if isinstance(node, ast.Try):
                nested += [stmt for handler in node.handlers for stmt in handler.body]
            found.update(_defined(nested))
    return found


def defines(path: str, dotted: str) -> bool:
    """Whether ``path`` defines ``dotted`` (``name``, or ``Class.name``)."""
    body = _module(path).body
    *owners, name = dotted.split(".")
    for owner in owners:
        node = _defined(body).get(owner)
        if not isinstance(node, ast.ClassDef):
            return False
        body = node.body
    return name in _defined(body)


@pytest.mark.parametrize(
    "reference", sorted({f"{path}:{name}" for path, name in REFERENCE.findall(DOC)})
)
def test_every_reference_names_a_definition(reference: str) -> None:
    path, name = reference.split(":")
    assert (ROOT / path).is_file(), f"docs/architecture.md names {path}, which does not exist"
    assert defines(path, name), f"docs/architecture.md names {path}:{name}, not defined there"


def test_the_move_path_is_a_numbered_list_of_steps() -> None:
    steps = move_path_steps()
    assert len(steps) >= 7, "the path of one move lists too few steps"
    for number, step in enumerate(steps, start=1):
        assert step.startswith(f"{number}. `"), f"step {number} is out of order: {step[:60]!r}"
        assert REFERENCE.match(step, len(f"{number}. ")), (
            f"step {number} does not start with a `file.py:function` reference: {step[:60]!r}"
        )


def test_the_move_path_passes_through_at_most_a_dozen_files() -> None:
    files = {path for step in move_path_steps() for path in SOURCE.findall(step)}
    assert len(files) <= MAX_FILES, f"the path of one move names {len(files)} files: {files}"


def test_the_move_path_runs_from_the_socket_through_the_service_to_the_connections() -> None:
    steps = move_path_steps()
    named = [f"{path}:{name}" for step in steps for path, name in REFERENCE.findall(step)]
    assert named[0].startswith("server/ws/socket.py:"), named[0]
    assert named[-1].startswith("server/ws/connection.py:"), named[-1]
    for needed in ("rooms/service.py:RoomService.execute", "rooms/room/room.py:Room.handle"):
        assert needed in named


@pytest.mark.parametrize("path", sorted(set(PATH.findall(DOC))))
def test_every_repository_path_exists(path: str) -> None:
    target = ROOT / path
    if path.endswith("/"):
        assert target.is_dir(), f"docs/architecture.md names the folder {path}: there is none"
        if path.startswith(("rooms/", "server/", "core/")):
            assert (target / "__init__.py").is_file(), f"{path} is not a package"
    else:
        assert target.exists(), f"docs/architecture.md names {path}, which does not exist"


def test_the_module_map_names_every_package() -> None:
    mapped = set(PATH.findall(section("Module map")))
    packages = {
        f"{init.parent.relative_to(ROOT).as_posix()}/"
        for top in ("rooms", "server")
        for init in (ROOT / top).rglob("__init__.py")
    }
    assert packages, "no packages found"
    missing = packages - mapped
    assert not missing, f"the module map of docs/architecture.md leaves out {sorted(missing)}"
