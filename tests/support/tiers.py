"""The tiers: ``./run test`` leaves out ``slow``; ``--fast`` also what starts a process.

``./run test`` is ``-m "not slow"``: everything but the load-shaped end-to-end runs of the
bench and the soak and the chaos suites (servers killed, frozen, drained, restarted or
failed over; marked ``slow`` where they are defined), which ``./run test --slow``
runs alone and CI (``.ci/run``) runs after the default tier. ``--fast`` is
``-m "not process and not slow"``. The ``process`` mark is put at collection
(tests/conftest.py) on every test that starts a process (a redis-server, a ``tictactoe``
command, a browser):

- every test in a folder of such tests (``PROCESS_FOLDERS``);
- every test asking, directly or through another fixture, for a fixture that starts one
  (``PROCESS_FIXTURES``), or parametrized with a value that makes a fixture start one
  through ``request.getfixturevalue`` (``PROCESS_PARAMS``);
- a test that starts one itself carries ``@pytest.mark.process`` (or ``redis``, ``e2e``:
  ``PROCESS_MARKS``).

While a test without the mark runs, starting a program (``subprocess``, also under asyncio)
fails it with a message naming this file, so a new process test cannot slip into the fast
tier unnoticed. Worker pools of the code under test (``multiprocessing``) are allowed.
"""

from __future__ import annotations

import contextlib
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

__all__ = [
    "PROCESS",
    "PROCESS_FIXTURES",
    "PROCESS_FOLDERS",
    "PROCESS_MARKS",
    "PROCESS_PARAMS",
    "UnmarkedProcess",
    "programs_refused",
    "starts_processes",
    "unmarked_programs_refused",
]

PROCESS = "process"

TESTS = Path(__file__).resolve().parents[1]

PROCESS_MARKS = frozenset({PROCESS, "redis", "e2e"})
"""Marks that say a test starts a process (a redis-server, a browser)."""

PROCESS_FOLDERS = frozenset({"e2e", "chaos", "bench"})
"""Folders right under tests/ whose tests start servers, Redis or a browser by nature."""

PROCESS_FIXTURES = frozenset(
    {
        # tests/conftest.py
        "redis_server",
        "redis_url",
        "start_redis_server",
        "own_redis_server",
        "redis_cluster",
        "start_redis_cluster",
        "start_redis_sentinel",
        "fleet",
    }
)
"""Fixtures that start a process (fixtures built on them are found through them)."""

PROCESS_PARAMS = frozenset({"redis", "redis-cluster"})
"""Parameter values that make a parametrized fixture ask for a process fixture by name
(``BACKEND_URLS`` and ``backend_url`` of tests/support/backends.py)."""


def starts_processes(item: pytest.Item) -> bool:
    """Whether ``item`` starts a process, by its folder, its fixtures or its parameters."""
    if any(item.get_closest_marker(mark) is not None for mark in PROCESS_MARKS):
        return True
    path = Path(item.path).resolve()
    if path.is_relative_to(TESTS) and path.relative_to(TESTS).parts[0] in PROCESS_FOLDERS:
        return True
    if PROCESS_FIXTURES.intersection(getattr(item, "fixturenames", ())):
        return True
    callspec = getattr(item, "callspec", None)
    params: dict[str, Any] = callspec.params if callspec is not None else {}
    return any(isinstance(value, str) and value in PROCESS_PARAMS for value in params.values())


class UnmarkedProcess(RuntimeError):
    """A test without the ``process`` mark started a program."""


@contextlib.contextmanager
def programs_refused(item: pytest.Item) -> Iterator[None]:
    """While the block runs, starting a program raises ``UnmarkedProcess``, and if the
    test swallowed that error, the block raises it again at the end."""
    started: list[str] = []
    execute_child = subprocess.Popen._execute_child  # type: ignore[attr-defined]

    def refuse(self: subprocess.Popen[Any], args: Any, *rest: Any, **kwargs: Any) -> None:
        words = [args] if isinstance(args, str | bytes) else list(args)[:3]
        program = " ".join(str(word) for word in words)
        started.append(program)
        raise UnmarkedProcess(
            f"{item.nodeid} starts a process ({program}) without the 'process' mark: ask "
            "for a fixture listed in tests/support/tiers.py, or mark it @pytest.mark.process"
        )

    subprocess.Popen._execute_child = refuse  # type: ignore[attr-defined]
    try:
        yield
    finally:
        subprocess.Popen._execute_child = execute_child  # type: ignore[attr-defined]
    if started:
        raise UnmarkedProcess(
            f"{item.nodeid} started {', '.join(started)} without the 'process' mark "
            "(see tests/support/tiers.py)"
        )


def unmarked_programs_refused(item: pytest.Item) -> contextlib.AbstractContextManager[None]:
    """``programs_refused(item)`` unless the test carries the ``process`` mark."""
    if item.get_closest_marker(PROCESS) is not None:
        return contextlib.nullcontext()
    return programs_refused(item)
