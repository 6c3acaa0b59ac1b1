"""The presence registry in Redis (``redis://``) or a Redis Cluster (``redis+cluster://``).

Keys (``<prefix>`` as for the rooms, ``keys``):

``<prefix>:workers``               set: every listed worker id (the registry others scan)
``<prefix>:{w:<worker>}:lease``    string, with the lease's TTL: who holds it (host:pid)
``<prefix>:{w:<worker>}:rooms``    set: the rooms where the worker holds connections
``<prefix>:{w:<worker>}:claim``    string, with the claim's TTL: the worker cleaning up

A worker's lease, index and claim share the hash tag ``{w:<worker>}``, so every step that must
see two of them (renew, index, claim, finish) is ONE single-slot script, on a Cluster too. The
registry set is touched by plain commands in an order that never loses a worker: listed before
its lease exists, unlisted only after ``finish`` deleted its index. On one Redis the store's
commits index and unindex rooms in the same step (``folds_into``, rooms.backends.index);
``add_room``/``remove_room`` serve a Cluster and paths that do not commit. Liveness is the lease
key's TTL on Redis' own clock, so workers' clocks need not agree. The registry has its own
client (``<prefix>-presence`` in ``CLIENT LIST``), so heartbeats never queue behind room
traffic.
"""

from __future__ import annotations

from typing import Any, cast

from redis.asyncio.cluster import RedisCluster

from rooms.backends.index import IndexChange
from rooms.backends.redis.batch import LuaScript, RedisCalls, redis_calls
from rooms.backends.redis.cluster.pair import ClusterURL, make_cluster_client, parse_cluster_url
from rooms.backends.redis.cluster.store import RedisClusterStore, first_contact
from rooms.backends.redis.connect import (
    RedisClient,
    RedisOptions,
    guarded,
    make_client,
    split_url,
    text,
)
from rooms.backends.redis.keys import KeyLayout
from rooms.backends.redis.store import RedisStore
from rooms.backends.store import Store

__all__ = ["CLAIM", "FINISH", "INDEX", "RENEW", "RedisRegistry", "redis_registry"]

KEEP_MS = 24 * 3600 * 1000
"""How long a worker's index outlives its last heartbeat: time for the sweep to use it."""

RENEW = """
-- KEYS: lease, rooms.  ARGV: ttl (ms), keep (ms).  1 renewed; 0 the lease is gone.
if redis.call('PEXPIRE', KEYS[1], ARGV[1]) == 0 then
  return 0
end
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1
"""

INDEX = """
-- KEYS: lease, rooms.  ARGV: room id, keep (ms).  1 indexed; 0 the lease is gone.
if redis.call('EXISTS', KEYS[1]) == 0 then
  return 0
end
redis.call('SADD', KEYS[2], ARGV[1])
redis.call('PEXPIRE', KEYS[2], ARGV[2])
return 1
"""

CLAIM = """
-- KEYS: lease, claim.  ARGV: claimer, ttl (ms).  1 claimed (or claimed again).
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
local holder = redis.call('GET', KEYS[2])
if holder and holder ~= ARGV[1] then
  return 0
end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
return 1
"""

FINISH = """
-- KEYS: claim, rooms.  ARGV: claimer.  1 when the claimer held the claim and no room was
-- left: both keys are gone (the caller then unlists the worker).
if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
if redis.call('SCARD', KEYS[2]) > 0 then
  return 0
end
redis.call('DEL', KEYS[1], KEYS[2])
return 1
"""


def _ms(seconds: float) -> int:
    return max(1, round(seconds * 1000))


def _server_of(client: RedisClient) -> tuple[object, ...]:
    """Where a (non-Cluster) client's commands go: host and port or socket path, and db."""
    assert not isinstance(client, RedisCluster)
    kwargs = client.connection_pool.connection_kwargs
    return (kwargs.get("host"), kwargs.get("port"), kwargs.get("path"), kwargs.get("db", 0))


class RedisRegistry:
    def __init__(
        self,
        client: RedisClient,
        *,
        prefix: str = "ttt",
        timeout: float = 2.0,
        own_client: bool = True,
        auto_pipeline: bool = True,
    ) -> None:
        self._client = client
        self._layout = KeyLayout(prefix)  # validates the prefix like the store does
        self._timeout = timeout
        self._own_client = own_client
        self._renew = client.register_script(RENEW)
        # Indexing and unindexing follow joins and departures: auto-pipelined (``batch``),
        # so the rooms of a busy worker share round trips.
        self._calls = redis_calls(client, auto_pipeline=auto_pipeline)
        self._index = LuaScript(INDEX)
        self._claim = client.register_script(CLAIM)
        self._finish = client.register_script(FINISH)
        self.name = "redis-cluster" if isinstance(client, RedisCluster) else "redis"

    @property
    def client(self) -> RedisClient:
        return self._client

    @property
    def calls(self) -> RedisCalls:
        """How the index writes are sent (auto-pipelined on one Redis: ``batch``)."""
        return self._calls

    @property
    def workers_key(self) -> str:
        return f"{self._layout.prefix}:workers"

    def _key(self, worker: str, what: str) -> str:
        return f"{self._layout.prefix}:{{w:{worker}}}:{what}"

    async def open(self) -> None:
        if isinstance(self._client, RedisCluster):
            await first_contact(self._client, RedisOptions(timeout=self._timeout), "presence")
            return
        async with guarded("presence", self._timeout):
            await self._client.ping()

    async def close(self) -> None:
        await self._calls.aclose()
        if self._own_client:
            await self._client.aclose()

    async def register(self, worker: str, ttl: float, *, holder: str) -> None:
        async with guarded("presence", self._timeout):
            await self._client.sadd(self.workers_key, worker)  # listed first: never lost
            await self._client.set(self._key(worker, "lease"), holder, px=_ms(ttl))

    async def renew(self, worker: str, ttl: float) -> bool:
        keys = [self._key(worker, "lease"), self._key(worker, "rooms")]
        async with guarded("presence", self._timeout):
            return bool(await self._renew(keys=keys, args=[_ms(ttl), KEEP_MS]))

    async def release(self, worker: str) -> None:
        async with guarded("presence", self._timeout):
            await self._client.delete(self._key(worker, "lease"))

    async def add_room(self, worker: str, room_id: str) -> bool:
        keys = [self._key(worker, "lease"), self._key(worker, "rooms")]
        async with self._calls.guard("presence", self._timeout):
            return bool(await self._calls.script(self._index, keys, [room_id, KEEP_MS]))

    async def remove_room(self, worker: str, room_id: str) -> None:
        async with self._calls.guard("presence", self._timeout):
            await self._calls.call("SREM", self._key(worker, "rooms"), room_id)

    def folds_into(self, store: Store) -> bool:
        """True for a Redis store (not a Cluster's) on this registry's server and database: a
        worker's index can then change in a room's commit (rooms.backends.index). On a Cluster
        the two live on different slots, which no script may touch at once."""
        if isinstance(self._client, RedisCluster) or not isinstance(store, RedisStore):
            return False
        if isinstance(store, RedisClusterStore) or isinstance(store.client, RedisCluster):
            return False
        return _server_of(store.client) == _server_of(self._client)

    def index_change(self, worker: str, room_id: str, *, add: bool) -> IndexChange:
        keys = (self._key(worker, "lease"), self._key(worker, "rooms"))
        return IndexChange(add, keys, room_id, KEEP_MS)

    async def scan(self, cursor: int, count: int) -> tuple[int, list[str]]:
        async with guarded("presence", self._timeout):
            reply = await self._client.sscan(self.workers_key, cursor, count=max(1, count))
        after, found = cast(tuple[Any, list[Any]], reply)
        return int(after), [text(item) for item in found]

    async def claim(self, worker: str, claimer: str, ttl: float) -> bool:
        keys = [self._key(worker, "lease"), self._key(worker, "claim")]
        async with guarded("presence", self._timeout):
            return bool(await self._claim(keys=keys, args=[claimer, _ms(ttl)]))

    async def rooms(self, worker: str, count: int) -> list[str]:
        async with guarded("presence", self._timeout):
            found = await self._client.srandmember(self._key(worker, "rooms"), max(1, count))
        return [text(item) for item in found or []]

    async def finish(self, worker: str, claimer: str) -> bool:
        keys = [self._key(worker, "claim"), self._key(worker, "rooms")]
        async with guarded("presence", self._timeout):
            if not await self._finish(keys=keys, args=[claimer]):
                return False
            # Only now: a worker is unlisted once nothing of it is left to clean. If this
            # fails, the next sweep finds it listed, claims it and finishes it again.
            await self._client.srem(self.workers_key, worker)
        return True

    async def holder(self, worker: str) -> str | None:
        """Who holds ``worker``'s lease (None: it is gone)."""
        async with guarded("presence", self._timeout):
            value = await self._client.get(self._key(worker, "lease"))
        return text(value) if value is not None else None


def redis_registry(url: str, *, timeout: float = 2.0, auto_pipeline: bool = True) -> RedisRegistry:
    """A registry with its own client on the Redis or Cluster of ``url`` (not opened);
    ``auto_pipeline`` off: its index writes are plain redis-py calls."""
    options = RedisOptions(timeout=timeout, auto_pipeline=auto_pipeline)
    if "+cluster" in url.split("://", 1)[0].lower():
        parsed = parse_cluster_url(url)
        named = ClusterURL(
            parsed.seeds,
            parsed.prefix,
            {**parsed.kwargs, "client_name": f"{parsed.prefix}-presence"},
        )
        return RedisRegistry(
            make_cluster_client(named, options), prefix=parsed.prefix, timeout=timeout
        )
    plain, prefix = split_url(url)
    client = make_client(plain, options, client_name=f"{prefix}-presence")
    return RedisRegistry(client, prefix=prefix, timeout=timeout, auto_pipeline=auto_pipeline)
