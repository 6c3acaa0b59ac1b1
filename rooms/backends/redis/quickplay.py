"""The quick-play queues in Redis: one list per rules, shared by every worker.

``pop`` is LPOP and ``push`` RPUSH/LPUSH (each atomic in itself); ``offer`` ("take the
oldest, or else queue mine") is one Lua script, so two workers offering at the same moment
cannot both queue their rooms. The request records of quick plays made with a join key are
strings: ``claim_request`` is one Lua script (set unless another record is there), and
``record_request`` one SET. Each script touches one key, so it runs on a Cluster too.
Keys: ``<prefix>:qp:{<rules digest>}``, expiring a day after their last write, and
``<prefix>:qr:{<join key hash>}``, expiring as rooms.quickplay asks.
"""

from __future__ import annotations

from typing import Any

from rooms.backends.redis.connect import beside, guarded, text
from rooms.backends.store import Store

__all__ = ["CLAIM", "OFFER", "RedisQueue"]

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

CLAIM = """
-- KEYS: the request.  ARGV: value, ttl (ms), the record to replace ('' for none).
-- False after recording the value; else the record that is there.
local current = redis.call('GET', KEYS[1])
if current and current ~= ARGV[3] then
  return current
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return false
"""

_TTL_MS = 24 * 3600 * 1000


class RedisQueue:
    def __init__(self, client: Any, prefix: str, *, timeout: float = 2.0) -> None:
        self._client = client
        self._prefix = prefix
        self._timeout = timeout
        self._offer = client.register_script(OFFER)
        self._claim = client.register_script(CLAIM)

    @classmethod
    def of_store(cls, store: Store) -> RedisQueue:
        """The queue beside a Redis store (its client, key prefix and timeout)."""
        found = beside(store, "quick-play queue")
        return cls(found.client, found.prefix, timeout=found.timeout)

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

    def _request_key(self, request: str) -> str:
        return f"{self._prefix}:qr:{{{request}}}"

    async def claim_request(
        self, request: str, value: str, ttl: float, *, replacing: str | None = None
    ) -> str | None:
        args = [value, _milliseconds(ttl), replacing or ""]
        async with guarded("quickplay", self._timeout):
            current = await self._claim(keys=[self._request_key(request)], args=args)
        return text(current) if current is not None else None

    async def record_request(self, request: str, value: str, ttl: float) -> None:
        async with guarded("quickplay", self._timeout):
            await self._client.set(self._request_key(request), value, px=_milliseconds(ttl))


def _milliseconds(seconds: float) -> int:
    return max(1, round(seconds * 1000))
