"""Fixtures for the fault tests: a redis-server of the test's own with its AOF on. The
others they use (``own_redis_server``, ``start_redis_cluster``, ``fleet``) are in
tests/conftest.py."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from tests.support.redis_server import RedisServer


@pytest.fixture
def aof_server(start_redis_server: Callable[..., RedisServer]) -> RedisServer:
    """A redis-server with the AOF on (fsync always): a kill -9 loses no acknowledged write."""
    return start_redis_server(appendonly=True)
