"""Backends every store/bus contract test runs against: memory, and a real Redis (a private
redis-server on a free port, started once for the session; tests use random room ids)."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator

import pytest
from room_helpers import BACKEND_URLS, CONTRACT_LOG_SIZE

from rooms import Backend, BackendOptions, open_backend
from tests.support.redis_server import RedisServer


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with RedisServer(tmp_path_factory.mktemp("redis")) as server:
        yield server.url


@pytest.fixture(params=BACKEND_URLS)
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    url = request.getfixturevalue("redis_url") if request.param == "redis" else request.param
    opened = open_backend(url, BackendOptions(log_size=CONTRACT_LOG_SIZE))
    await opened.open()
    try:
        yield opened
    finally:
        await opened.close()
