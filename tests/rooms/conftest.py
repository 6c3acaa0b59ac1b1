"""The backends every store/bus contract test runs against (``backend``): memory, a real
Redis and a real Redis Cluster (the private ones of tests/conftest.py); tests use random
room ids. ``maker`` opens Redis store/bus pairs on the module's private redis-server."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from rooms import Backend, BackendOptions, open_backend
from tests.support.backends import BACKEND_URLS, CONTRACT_LOG_SIZE, BackendMaker, backend_url
from tests.support.redis_server import RedisServer


@pytest.fixture(params=BACKEND_URLS)
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    opened = open_backend(backend_url(request), BackendOptions(log_size=CONTRACT_LOG_SIZE))
    await opened.open()
    try:
        yield opened
    finally:
        await opened.close()


@pytest.fixture
async def maker(redis_server: RedisServer) -> AsyncIterator[BackendMaker]:
    maker = BackendMaker("redis", redis_server.url)
    try:
        yield maker
    finally:
        await maker.close()
