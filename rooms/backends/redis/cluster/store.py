"""The Redis Store on a Redis Cluster (``redis+cluster://``, built by ``pair``).

Every key of a room carries the hash tag ``{room_id}`` (rooms.backends.redis.keys), so its
record, log and channel sit on one slot and the Redis store's Lua scripts run unchanged on that
slot's master. What differs from one Redis:

- **Publishing.** The commit script SPUBLISHes (``COMMIT_SHARDED``) to the shard owning the
  room's slot, where the sharded subscriptions listen (``bus``), instead of to every node.
- **The epoch, per slot.** Each master can lose its data on its own, so the epoch lives in every
  slot that holds a room (``<prefix>:{<tag>}:epoch``, ``<tag>`` hashing to the slot). It moves
  with its slot through resharding and is lost exactly when the slot's rooms are, so a worker
  can still tell "lost" from "expired". A worker reads a slot's epoch the first time it touches
  the slot; losses are noticed when a lost room is looked up.
- **Readiness.** ``ping`` asks every master: with ``cluster-require-full-coverage yes`` (the
  default) a cluster with an unserved slot refuses every command.
- **The deadlines** of correspondence rooms (rooms.backends.due) are one sorted set too,
  written in a second step after the commit; the deadline scanner repairs what a worker dying
  between the two leaves, as the room's next commit does.
- **The lobby** is one sorted set on whichever master its key hashes to, touched only when a
  public room is created, finishes or is listed, and kept consistent by ordering and read
  repair, never by a cross-slot script.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Callable

from redis.asyncio.cluster import RedisCluster
from redis.crc import REDIS_CLUSTER_HASH_SLOTS, key_slot

from rooms.backends.redis.connect import RedisOptions, guarded
from rooms.backends.redis.scripts import COMMIT_SHARDED
from rooms.backends.redis.store import DAY, RedisStore
from rooms.errors import RoomError

__all__ = ["RedisClusterStore", "first_contact", "slot_tags"]

OPEN_ATTEMPTS = 3
_SEARCH_LIMIT = 10_000_000  # far above the ~315,000 numbers it takes to cover every slot


@functools.cache
def slot_tags() -> tuple[str, ...]:
    """For every hash slot, the shortest hex number (as text) that hashes to it.

    Computed once per process (a fraction of a second of CRC16, off the event loop), so a
    slot's epoch key is a dictionary lookup afterwards."""
    found: dict[int, str] = {}
    for number in range(_SEARCH_LIMIT):
        tag = format(number, "x")
        found.setdefault(key_slot(tag.encode()), tag)
        if len(found) == REDIS_CLUSTER_HASH_SLOTS:
            return tuple(found[slot] for slot in range(REDIS_CLUSTER_HASH_SLOTS))
    raise RuntimeError("no hash tag found for some cluster slots")  # CRC16 covers them all


async def first_contact(client: RedisCluster, options: RedisOptions, what: str) -> None:
    """Learn the topology and check that every master answers, trying a few times.

    The first contact is heavier than any later command (CLUSTER SLOTS, then the whole
    COMMAND table, from one node), so one slow answer on a busy host should not stop a
    worker from starting; a cluster that is really down still fails within
    ``OPEN_ATTEMPTS`` deadlines."""
    for attempt in range(OPEN_ATTEMPTS):
        try:
            async with guarded(what, options.timeout):
                await client.initialize()
                await client.ping(target_nodes=RedisCluster.PRIMARIES)
            return
        except RoomError:
            if attempt == OPEN_ATTEMPTS - 1:
                raise
        await asyncio.sleep(0.2)


class RedisClusterStore(RedisStore):
    name = "redis-cluster"
    _commit_source = COMMIT_SHARDED
    _due_in_commit = False  # the deadlines are on another slot: a second step

    def __init__(
        self,
        client: RedisCluster,
        *,
        own_client: bool = True,
        prefix: str = "ttt",
        options: RedisOptions | None = None,
        log_size: int = 256,
        room_ttl: float = DAY,
        finished_ttl: float = DAY,
        lobby_grace: float = 60.0,
        remember: int = 100_000,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(
            "redis+cluster://",
            client=client,
            prefix=prefix,
            options=options,
            log_size=log_size,
            room_ttl=room_ttl,
            finished_ttl=finished_ttl,
            lobby_grace=lobby_grace,
            remember=remember,
            clock=clock,
        )
        self._cluster = client
        self._own_client = own_client

    @property
    def cluster(self) -> RedisCluster:
        return self._cluster

    def _epoch_key(self, room_id: str) -> str:
        slot = key_slot(self._layout.room(room_id).room.encode())
        return self._layout.slot_epoch(slot_tags()[slot])

    def epoch_of(self, room_id: str) -> str | None:
        """The epoch this store last read for ``room_id``'s slot (None if never)."""
        return self._epochs.current.get(self._epoch_key(room_id))

    async def open(self) -> None:
        """Learn the topology and check that every master answers."""
        await asyncio.to_thread(slot_tags)  # the one-off table, off the event loop
        await first_contact(self._cluster, self.options, "open")

    async def ping(self) -> None:
        async with self._guard("ping"):
            await self._cluster.ping(target_nodes=RedisCluster.PRIMARIES)
