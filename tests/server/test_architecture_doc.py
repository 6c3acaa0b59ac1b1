"""docs/architecture.md stays true: every ``file.py:name`` it names is defined in that file,
the path of one move is a numbered list of such steps through at most a dozen project
files, each with an *also* line of the files its own file imports, every repository path it
names exists, its module map names every package of rooms/ and server/, the room's commands
it counts and lists are the dispatch table's, and every close code it quotes is one."""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

from rooms.room.room import _HANDLERS
from server import CloseCode

ROOT = Path(__file__).resolve().parents[2]
DOC = (ROOT / "docs" / "architecture.md").read_text()
MAX_FILES = 12
"""Project files the path of one move may pass through (issue 22: a newcomer follows it)."""

_TOP = r"(?:core|rooms|server|bench|cli)"
REFERENCE = re.compile(rf"`({_TOP}/[\w/]+\.py):([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*)`")
"""```path/to/file.py:function``` or ```path/to/file.py:Class.method```."""
PATH = re.compile(r"`((?:core|rooms|server|bench|cli|tests|static|docs|deploy)/[\w./-]*)`")
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


def split_also(step: str) -> tuple[str, str]:
    """A step's own text, and its *also* part (from its ``also:`` line to its end)."""
    text, marker, also = step.partition("\n   also:")
    if not marker:
        text, marker, also = step.partition("\n    also:")
    assert marker, f"this step has no also line: {step[:60]!r}"
    return text, also


def test_the_move_path_passes_through_at_most_a_dozen_files() -> None:
    files = {path for step in move_path_steps() for path in SOURCE.findall(split_also(step)[0])}
    assert len(files) <= MAX_FILES, f"the path of one move names {len(files)} files: {files}"


def _imported_files(path: str) -> set[str]:
    """The project files ``path`` imports, directly: a module, or the submodule a
    package's ``__init__`` takes a name from."""

    def file_of(module: str) -> str | None:
        base = ROOT / module.replace(".", "/")
        for candidate in (base.with_suffix(".py"), base / "__init__.py"):
            if candidate.is_file():
                return candidate.relative_to(ROOT).as_posix()
        return None

    def targets(file: str) -> list[tuple[str, str | None]]:
        module = file.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        package = module if file.endswith("__init__.py") else module.rpartition(".")[0]
        found: list[tuple[str, str | None]] = []
        for node in ast.walk(_module(file)):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parent = package
                    for _ in range(node.level - 1):
                        parent = parent.rpartition(".")[0]
                    base = f"{parent}.{node.module}" if node.module else parent
                found.extend((base, alias.name) for alias in node.names)
            elif isinstance(node, ast.Import):
                found.extend((alias.name, None) for alias in node.names)
        return found

    reached: set[str] = set()
    for module, name in targets(path):
        submodule = file_of(f"{module}.{name}") if name else None
        target = submodule or file_of(module)
        if target is None:
            continue
        if submodule is None and name and target.endswith("__init__.py"):
            origins = [m for m, n in targets(target) if n == name and file_of(m)]
            target = file_of(origins[0]) or target if origins else target
        reached.add(target)
    return reached


@pytest.mark.parametrize("number", range(1, len(move_path_steps()) + 1))
def test_each_steps_also_line_names_files_its_own_file_imports(number: int) -> None:
    step = move_path_steps()[number - 1]
    _, also = split_also(step)
    own = REFERENCE.match(step, len(f"{number}. "))
    assert own is not None
    named = re.findall(r"`((?:core|rooms|server)/[\w/]+\.py)`", also)
    if not named:
        assert "none" in also, f"step {number}: an also line names files, or says none"
    imported = _imported_files(own.group(1))
    for path in named:
        assert path in imported, f"step {number}: {own.group(1)} does not import {path}"


def test_the_room_s_commands_are_counted_and_listed_as_the_dispatch_table_has_them() -> None:
    handlers = {kind.__name__ for kind in _HANDLERS}
    step = move_path_steps()[5]
    assert f"({len(_HANDLERS)} commands, `_HANDLERS`)" in step
    room = section("The room (`rooms/room/`)")
    start = room.index("commands (`rooms/room/commands.py`):")
    listing = room[start : room.index("`room.py` maps each", start)]
    listed = set(re.findall(r"`([A-Z]\w+)`", listing))
    assert listed == handlers, f"listed {sorted(listed)}, dispatched {sorted(handlers)}"
    words = {17: "seventeen", 18: "eighteen", 19: "nineteen", 20: "twenty"}
    assert f"The {words.get(len(_HANDLERS), len(_HANDLERS))} commands" in room


def test_every_close_code_quoted_is_one_the_server_sends() -> None:
    quoted = {int(code) for code in re.findall(r"(?<![\d,.])([14]\d{3})(?![\d,])", DOC)}
    assert quoted, "the doc quotes no close code"
    assert quoted <= {int(code) for code in CloseCode}, sorted(quoted - set(CloseCode))


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
