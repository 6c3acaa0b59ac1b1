"""Backends every store/bus contract test runs against: memory, a real Redis (a private
redis-server on a free port) and a real Redis Cluster (three private cluster nodes), each
started once for the session; tests use random room ids."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from room_helpers import BACKEND_URLS, CONTRACT_LOG_SIZE

from rooms import Backend, BackendOptions, open_backend
from tests.support.backends import BackendMaker
from tests.support.redis_cluster import LocalCluster
from tests.support.redis_server import RedisServer


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with RedisServer(tmp_path_factory.mktemp("redis")) as server:
        yield server.url


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    with LocalCluster(tmp_path_factory.mktemp("redis-cluster")) as cluster:
        yield cluster


@pytest.fixture(scope="session")
def redis_cluster_url(redis_cluster: LocalCluster) -> str:
    return redis_cluster.url


_FIXTURE_URLS = {"redis": "redis_url", "redis-cluster": "redis_cluster_url"}


@pytest.fixture(params=BACKEND_URLS)
async def backend(request: pytest.FixtureRequest) -> AsyncIterator[Backend]:
    fixture = _FIXTURE_URLS.get(request.param)
    url = request.getfixturevalue(fixture) if fixture else request.param
    opened = open_backend(url, BackendOptions(log_size=CONTRACT_LOG_SIZE))
    await opened.open()
    try:
        yield opened
    finally:
        await opened.close()


# A private redis-server per test module, for tests that look inside Redis (keys, TTLs,
# scripts) or stop it; the contract suites above share the session one.
@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    with RedisServer(Path(tmp_path_factory.mktemp("redis"))) as server:
        yield server


@pytest.fixture
async def maker(redis_server: RedisServer) -> AsyncIterator[BackendMaker]:
    maker = BackendMaker("redis", redis_server.url)
    try:
        yield maker
    finally:
        await maker.close()
