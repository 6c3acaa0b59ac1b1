"""A busy worker's Redis client: more commands in flight than connections wait for one
(within the call's deadline) instead of failing; the connections stay bounded. Counted
from Redis' side (CLIENT LIST), never timed."""

from __future__ import annotations

import asyncio
import secrets

import pytest
import redis.asyncio as aioredis

from rooms import UnsupportedBackend
from rooms.backends.redis.connect import RedisOptions
from rooms.backends.redis.store import RedisStore

pytestmark = pytest.mark.redis


async def test_a_thousand_loads_at_once_share_a_bounded_pool(redis_url: str) -> None:
    name = "pool" + secrets.token_hex(3)
    store = RedisStore(redis_url, prefix=name, options=RedisOptions(pool_size=4))
    await store.open()
    try:
        assert await store.create("poolroom", "v0", listed=False)
        # redis-py's default pool fails past 100 connections (MaxConnectionsError, which
        # the store would report as "unavailable"): these must all wait their turn.
        loaded = await asyncio.gather(*(store.load("poolroom") for _ in range(1000)))
        assert {stored.version for stored in loaded if stored is not None} == {0}
        assert all(stored is not None for stored in loaded)
        client = store.client
        assert isinstance(client, aioredis.Redis)  # one Redis, not a cluster
        pool = client.connection_pool
        assert pool.max_connections == 4
        held = len(pool._available_connections) + len(pool._in_use_connections)
        assert 1 <= held <= 4
    finally:
        await store.close()


def test_the_pool_size_is_checked() -> None:
    for bad in (0, -1, True, 2.5):
        with pytest.raises(UnsupportedBackend):
            RedisOptions(pool_size=bad)  # type: ignore[arg-type]
