"""Store/bus pairs for tests: the same contract runs against memory, a real Redis and a real
Redis Cluster (kind ``cluster``, its ``redis+cluster://`` URL).

``BackendMaker`` opens pairs on demand and closes them all at teardown, so a test can ask
for several independent workers (separate clients, separate pub/sub connections) sharing
one Redis, as a multi-worker deployment does.
"""

from __future__ import annotations

import itertools
import json
from dataclasses import dataclass, field

import pytest

from rooms.backends import Bus, MemoryBus, MemoryStore, Registry, Store, open_backend
from rooms.backends.redis.bus import RedisBus
from rooms.backends.redis.cluster.bus import RedisClusterBus
from rooms.backends.redis.cluster.pair import make_cluster_client, parse_cluster_url
from rooms.backends.redis.cluster.store import RedisClusterStore
from rooms.backends.redis.connect import RedisOptions
from rooms.backends.redis.store import RedisStore
from tests.support.redis_cluster import LocalCluster

__all__ = [
    "BACKEND_URLS",
    "CONTRACT_LOG_SIZE",
    "BackendMaker",
    "Pair",
    "backend_url",
    "event",
    "unique_prefix",
]

BACKEND_URLS = ["memory://", "redis", "redis-cluster"]
"""Every store/bus backend the contract suites run against ("redis": the private
redis-server of tests/conftest.py; "redis-cluster": its private three-master Redis Cluster)."""
CONTRACT_LOG_SIZE = 4


def backend_url(request: pytest.FixtureRequest) -> str:
    """The URL of the backend ``request.param`` names (one of ``BACKEND_URLS``): memory's
    own, or the URL of the private Redis or Redis Cluster fixture of tests/conftest.py."""
    kind: str = request.param
    if kind == "redis":
        url: str = request.getfixturevalue("redis_url")
        return url
    if kind == "redis-cluster":
        cluster: LocalCluster = request.getfixturevalue("redis_cluster")
        return cluster.url
    return kind


_counter = itertools.count(1)


def unique_prefix() -> str:
    """A key prefix no other test in this process uses (tests share a Redis server)."""
    return f"t{next(_counter)}"


def event(version: int, **extra: object) -> str:
    """An event text as the service encodes them (the version is what the bus reads)."""
    return json.dumps({"type": "test", "version": version, **extra}, separators=(",", ":"))


@dataclass(slots=True)
class Pair:
    store: Store
    bus: Bus


@dataclass(slots=True)
class BackendMaker:
    kind: str
    url: str | None = None
    prefix: str = field(default_factory=unique_prefix)
    opened: list[Pair] = field(default_factory=list)
    memory_bus: MemoryBus | None = None

    async def make(
        self,
        *,
        log_size: int = 256,
        room_ttl: float = 3600.0,
        finished_ttl: float = 600.0,
        lobby_grace: float = 60.0,
        options: RedisOptions | None = None,
        health: tuple[float, float] = (0.2, 1.0),
    ) -> Pair:
        """A new opened store/bus pair; Redis pairs share the server and the prefix."""
        if self.kind == "memory":
            bus = MemoryBus()
            pair = Pair(MemoryStore(bus, log_size=log_size, room_ttl=room_ttl), bus)
        elif self.kind == "cluster":
            assert self.url is not None
            parsed, chosen = parse_cluster_url(self.url), options or RedisOptions()
            cluster_store = RedisClusterStore(
                make_cluster_client(parsed, chosen),
                prefix=self.prefix,
                log_size=log_size,
                room_ttl=room_ttl,
                finished_ttl=finished_ttl,
                lobby_grace=lobby_grace,
                options=chosen,
            )
            cluster_bus = RedisClusterBus(
                make_cluster_client(parsed, chosen),
                prefix=self.prefix,
                options=chosen,
                health_interval=health[0],
                health_timeout=health[1],
                own_client=True,
            )
            pair = Pair(cluster_store, cluster_bus)
        else:
            assert self.url is not None
            store = RedisStore(
                self.url,
                prefix=self.prefix,
                log_size=log_size,
                room_ttl=room_ttl,
                finished_ttl=finished_ttl,
                lobby_grace=lobby_grace,
                options=options,
            )
            redis_bus = RedisBus(
                self.url,
                prefix=self.prefix,
                options=options,
                health_interval=health[0],
                health_timeout=health[1],
            )
            pair = Pair(store, redis_bus)
        await pair.store.open()
        await pair.bus.open()
        self.opened.append(pair)
        return pair

    async def close(self) -> None:
        for pair in reversed(self.opened):
            await pair.store.close()
            await pair.bus.close()
        self.opened.clear()


def registry_for(url: str) -> Registry:
    """The presence registry ``open_backend(url)`` builds, alone (not opened): its store and
    bus are never opened, so they hold no connection."""
    return open_backend(url).registry
