"""Fixtures for the fault tests: a private redis-server per test, killed at teardown, and
the test's own ``tictactoe serve`` processes, stopped at teardown."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.chaos.fleet import Fleet
from tests.support.redis_server import RedisServer


@pytest.fixture
def aof_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A redis-server with the AOF on (fsync always): a kill -9 loses no acknowledged write."""
    with RedisServer(tmp_path / "redis", appendonly=True) as server:
        yield server


@pytest.fixture
def volatile_server(tmp_path: Path) -> Iterator[RedisServer]:
    """A redis-server without any persistence: a restart comes back empty."""
    with RedisServer(tmp_path / "redis", appendonly=False) as server:
        yield server


@pytest.fixture
def fleet(tmp_path: Path) -> Iterator[Fleet]:
    """``tictactoe serve`` processes of this test (logs in its tmp_path), all stopped after."""
    started = Fleet(tmp_path / "serve-logs")
    try:
        yield started
    finally:
        started.stop()
