"""The bots' desk in Redis (rooms.bots.desk), shared by every worker and host.

``<prefix>:bot:{<id>}`` is a hash of the bot's entries, expiring a day after its last write;
``<prefix>:bot:{<id>}:day:<day>`` its count of games that day (two days); both carry the
bot's hash tag, so a script touching them runs on one Cluster slot. ``<prefix>:bots:online``
is a sorted set of bot ids scored by when they stop counting as online. ``put`` and ``take``
are one Lua script each (a bounded write; a read-and-delete), the rest single commands.
"""

from __future__ import annotations

from typing import Any

from rooms.backends.redis.connect import beside, guarded, text
from rooms.backends.store import Store
from rooms.bots.desk import ENTRY_TTL, MAX_ENTRIES
from rooms.errors import ErrorCode, RoomError

__all__ = ["PUT", "TAKE", "RedisBotDesk"]

PUT = """
-- KEYS: the bot's hash.  ARGV: key, value, most entries, ttl (ms).  1 after writing; 0 when full.
local new = redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0
if new and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then
  return 0
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
"""

TAKE = """
-- KEYS: the bot's hash.  ARGV: key.  The entry (false: none), removed.
local value = redis.call('HGET', KEYS[1], ARGV[1])
if value then
  redis.call('HDEL', KEYS[1], ARGV[1])
end
return value
"""

_DAY_TTL = 2 * 24 * 3600


class RedisBotDesk:
    def __init__(self, client: Any, prefix: str, *, timeout: float = 2.0) -> None:
        self._client = client
        self._prefix = prefix
        self._timeout = timeout
        self._put = client.register_script(PUT)
        self._take = client.register_script(TAKE)

    @classmethod
    def of_store(cls, store: Store) -> RedisBotDesk:
        found = beside(store, "bots' desk")
        return cls(found.client, found.prefix, timeout=found.timeout)

    def _key(self, bot_id: str) -> str:
        return f"{self._prefix}:bot:{{{bot_id}}}"

    @property
    def _online_key(self) -> str:
        return f"{self._prefix}:bots:online"

    async def put(self, bot_id: str, key: str, value: str) -> None:
        args = [key, value, MAX_ENTRIES, round(ENTRY_TTL * 1000)]
        async with guarded("bots", self._timeout):
            done = await self._put(keys=[self._key(bot_id)], args=args)
        if not int(done):
            raise RoomError(ErrorCode.BUSY, f"bot {bot_id!r:.40} has too much waiting for it")

    async def take(self, bot_id: str, key: str) -> str | None:
        async with guarded("bots", self._timeout):
            value = await self._take(keys=[self._key(bot_id)], args=[key])
        return text(value) if value is not None else None

    async def entries(self, bot_id: str) -> dict[str, str]:
        async with guarded("bots", self._timeout):
            raw = await self._client.hgetall(self._key(bot_id))
        return {text(key): text(value) for key, value in raw.items()}

    async def count_day(self, bot_id: str, day: str, add: int) -> int:
        key = f"{self._key(bot_id)}:day:{day}"
        async with guarded("bots", self._timeout):
            count = await self._client.incrby(key, add)
            await self._client.expire(key, _DAY_TTL)
        return int(count)

    async def set_online(self, bot_id: str, until: float) -> None:
        async with guarded("bots", self._timeout):
            await self._client.zadd(self._online_key, {bot_id: until})

    async def set_offline(self, bot_id: str) -> None:
        async with guarded("bots", self._timeout):
            await self._client.zrem(self._online_key, bot_id)

    async def online(self, now: float, limit: int) -> list[str]:
        async with guarded("bots", self._timeout):
            await self._client.zremrangebyscore(self._online_key, "-inf", now)
            raw = await self._client.zrangebyscore(self._online_key, now, "+inf", 0, limit)
        return sorted(text(bot) for bot in raw)

    async def is_online(self, bot_id: str, now: float) -> bool:
        async with guarded("bots", self._timeout):
            until = await self._client.zscore(self._online_key, bot_id)
        return until is not None and float(until) > now
