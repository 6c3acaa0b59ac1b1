"""Fixtures shared by every test folder."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Generator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.support.backends import BackendMaker
from tests.support.redis_cluster import LocalCluster
from tests.support.redis_sentinel import LocalSentinel
from tests.support.redis_server import RedisServer
from tests.support.schedule import longest_files_first
from tests.support.server_process import Fleet
from tests.support.tiers import PROCESS, starts_processes, unmarked_programs_refused
from tests.support.timeouts import with_line_numbers

pytest_plugins = ["tests.support.live_fixtures"]  # the live server fixtures, server/ and cli/


@pytest.fixture
async def makers() -> AsyncIterator[list[BackendMaker]]:
    """Backend makers a test adds to; every one is closed at teardown."""
    made: list[BackendMaker] = []
    try:
        yield made
    finally:
        for maker in made:
            await maker.close()


@pytest.fixture(scope="session", autouse=True)
def private_config_home(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``XDG_CONFIG_HOME`` of this session alone, for this process and every program it
    starts: ``tictactoe play --connect`` keeps its player identities there, never in the
    home directory of whoever runs the tests."""
    home = tmp_path_factory.mktemp("config-home")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CONFIG_HOME", str(home))
        yield home


@pytest.fixture(scope="session", autouse=True)
def bytecode_cache(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Path]:
    """The programs the tests start (each ``tictactoe serve``, the CLI, uvicorn's
    worker processes) keep their compiled bytecode in one cache under .pytest_cache, even
    when ``PYTHONDONTWRITEBYTECODE`` is set (as in the Dockerfile and some CI images):
    without it each of them compiles the project's modules again, about 0.2 s of CPU a
    start. The cache lies outside the source tree, so nothing is written next to the code.
    ``./run test`` gives pytest and its workers the same cache before they start."""
    cache = getattr(request.config, "cache", None)
    directory = cache.mkdir("pycache") if cache is not None else tmp_path_factory.mktemp("pycache")
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PYTHONPYCACHEPREFIX", str(directory))
        patch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)
        yield directory


# -- private Redis ---------------------------------------------------------------------------
# Never the system's redis-server: each of these is a process of the tests' own on a free
# port, stopped by its pid. Tests sharing one use random room ids or key prefixes.


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    """A private redis-server shared by the tests of one module, without persistence. A
    test may look inside it, or pause and resume it; one that kills it uses its own."""
    with RedisServer(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture(scope="module")
def redis_url(redis_server: RedisServer) -> str:
    """The store URL of ``redis_server``."""
    return redis_server.url


@pytest.fixture
def start_redis_server(tmp_path: Path) -> Iterator[Callable[..., RedisServer]]:
    """``start_redis_server(appendonly=False)``: a redis-server of this test alone (it
    kills, restarts, freezes or wipes it), started and answering; killed at teardown."""
    started: list[RedisServer] = []

    def start(*, appendonly: bool = False) -> RedisServer:
        server = RedisServer(tmp_path / f"redis{len(started)}", appendonly=appendonly)
        started.append(server)
        server.start()
        return server

    try:
        yield start
    finally:
        for server in started:
            server.kill()


@pytest.fixture
def own_redis_server(start_redis_server: Callable[..., RedisServer]) -> RedisServer:
    """A redis-server of this test alone without persistence (a restart comes back empty)."""
    return start_redis_server()


@pytest.fixture(scope="session")
def redis_cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalCluster]:
    """A private three-master Redis Cluster shared by the whole session."""
    with LocalCluster(tmp_path_factory.mktemp("redis-cluster")) as cluster:
        yield cluster


@pytest.fixture
def start_redis_cluster(tmp_path: Path) -> Iterator[Callable[..., LocalCluster]]:
    """``start_redis_cluster(appendonly=False)``: a cluster of this test alone (it is
    reshaped or restarted), healthy when returned; every node killed at teardown."""
    started: list[LocalCluster] = []

    def start(*, appendonly: bool = False) -> LocalCluster:
        cluster = LocalCluster(tmp_path / f"cluster{len(started)}", appendonly=appendonly)
        started.append(cluster)
        return cluster.start()

    try:
        yield start
    finally:
        for cluster in started:
            cluster.kill()


@pytest.fixture
def start_redis_sentinel(tmp_path: Path) -> Iterator[Callable[..., LocalSentinel]]:
    """``start_redis_sentinel(min_replicas=1)``: a primary, its replica and one Sentinel of
    this test alone (it fails them over), watching when returned; all killed at teardown."""
    started: list[LocalSentinel] = []

    def start(*, min_replicas: int = 1) -> LocalSentinel:
        sentinel = LocalSentinel(tmp_path / f"sentinel{len(started)}", min_replicas=min_replicas)
        started.append(sentinel)
        try:
            return sentinel.start()
        except BaseException:
            sentinel.kill()
            raise

    try:
        yield start
    finally:
        for sentinel in started:
            sentinel.kill()


# -- server processes ------------------------------------------------------------------------


@pytest.fixture
def fleet(tmp_path: Path) -> Iterator[Fleet]:
    """``tictactoe serve`` processes of this test (logs in its tmp_path), all stopped after."""
    started = Fleet(tmp_path / "serve-logs")
    try:
        yield started
    finally:
        started.stop()


# -- tiers and reports -----------------------------------------------------------------------

# No time limit on a Hypothesis example: the machine is shared, and a busy core is no bug.
settings.register_profile("shared-machine", deadline=None)
settings.load_profile("shared-machine")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark ``process`` every test that starts one (tests/support/tiers.py), and put the
    longest files first (tests/support/schedule.py)."""
    for item in items:
        if starts_processes(item):
            item.add_marker(PROCESS)
    longest_files_first(items)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, None, None]:
    with unmarked_programs_refused(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Generator[None, None, None]:
    with unmarked_programs_refused(item):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item) -> Generator[None, None, None]:
    with unmarked_programs_refused(item):
        return (yield)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(
    item: pytest.Item, call: pytest.CallInfo[None]
) -> Generator[None, pytest.TestReport, pytest.TestReport]:
    """A timeout (or any error) is reported as the test's failure, never an INTERNALERROR
    (tests/support/timeouts.py)."""
    if call.excinfo is not None:
        call.excinfo = with_line_numbers(call.excinfo)
    return (yield)
