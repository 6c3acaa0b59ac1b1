"""The quick-play queues in Redis: one list per rules, shared by every worker.

``pop`` is LPOP and ``push`` RPUSH/LPUSH (each atomic in itself); ``offer`` ("take the
oldest, or else queue mine") is one Lua script, so two workers offering at the same moment
cannot both queue their rooms. Each script touches one key, so it runs on a Cluster too.
Keys: ``<prefix>:qp:{<rules digest>}``, expiring a day after their last write.
"""

from __future__ import annotations

from typing import Any

from rooms.backends.redis.connect import guarded, text
from rooms.backends.store import Store
from rooms.errors import ErrorCode, RoomError

__all__ = ["OFFER", "RedisQueue"]

OFFER = """
-- KEYS: the queue.  ARGV: room id, ttl (ms).  The oldest id, or false after queueing ours.
local oldest = redis.call('LPOP', KEYS[1])
if oldest then
  return oldest
end
redis.call('RPUSH', KEYS[1], ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return false
"""

_TTL_MS = 24 * 3600 * 1000


class RedisQueue:
    def __init__(self, client: Any, prefix: str, *, timeout: float = 2.0) -> None:
        self._client = client
        self._prefix = prefix
        self._timeout = timeout
        self._offer = client.register_script(OFFER)

    @classmethod
    def of_store(cls, store: Store) -> RedisQueue:
        """The queue beside a Redis store (its client, key prefix and timeout)."""
        client = getattr(store, "client", None)
        layout = getattr(store, "layout", None)
        if client is None or layout is None:
            raise RoomError(ErrorCode.UNAVAILABLE, f"no quick-play queue for a {store.name} store")
        options = getattr(store, "options", None)
        timeout = float(getattr(options, "timeout", 2.0))
        return cls(client, layout.prefix, timeout=timeout)

    def _key(self, key: str) -> str:
        return f"{self._prefix}:qp:{{{key}}}"

    async def pop(self, key: str) -> str | None:
        async with guarded("quickplay", self._timeout):
            value = await self._client.lpop(self._key(key))
        return text(value) if value is not None else None

    async def offer(self, key: str, room_id: str) -> str | None:
        async with guarded("quickplay", self._timeout):
            value = await self._offer(keys=[self._key(key)], args=[room_id, _TTL_MS])
        return text(value) if value is not None else None

    async def push(self, key: str, room_id: str, *, front: bool = False) -> None:
        name = self._key(key)
        async with guarded("quickplay", self._timeout):
            if front:
                await self._client.lpush(name, room_id)
            else:
                await self._client.rpush(name, room_id)
            await self._client.pexpire(name, _TTL_MS)
