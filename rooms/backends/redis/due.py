"""The Redis store's index of correspondence deadlines (rooms.backends.due): one sorted set.

``<prefix>:{deadlines}`` (``keys``) scores each correspondence room by its deadline, in seconds
since the epoch. On one Redis the commit script sets or removes the room's entry in the commit's
own step (``CommitArgs.due``, ``scripts``); on a Cluster the set lives on another slot than the
room, so the store writes it in a second step (``write``). The deadline scanner
(rooms.correspondence.scanner) reads the rooms that are due (``due_rooms``) and repairs an entry
it finds wrong, a room gone or a Cluster's second step lost (``REPAIR_DUE``), only while the
entry is still as it saw it, so a newer commit's entry is never undone.
"""

from __future__ import annotations

from typing import Any

from rooms.backends.redis.batch import LuaScript, RedisCalls
from rooms.backends.redis.connect import RedisClient, guarded, text
from rooms.backends.redis.keys import KeyLayout

__all__ = ["REPAIR_DUE", "RedisDeadlines"]

REPAIR_DUE = """
-- KEYS: deadlines.  ARGV: room, the score seen, the new score ('' removes).  1 if repaired:
-- only an entry still as seen changes, so a commit's newer entry is never undone.
local held = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not held or tonumber(held) ~= tonumber(ARGV[2]) then
  return 0
end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1
"""


class RedisDeadlines:
    """The deadline index on the store's client, hot calls and key layout (``RedisStore``
    answers rooms.backends.due.DueIndex's deadline half through it)."""

    def __init__(
        self, client: RedisClient, calls: RedisCalls, layout: KeyLayout, timeout: float
    ) -> None:
        self._client = client
        self._calls = calls
        self._key = layout.deadlines
        self._timeout = timeout
        self._repair = LuaScript(REPAIR_DUE)

    async def write(self, room_id: str, at: float | None) -> None:
        """Index ``room_id`` at ``at`` (None: unindex it): a Cluster's second step, sent
        inside the caller's guarded block."""
        if at is None:
            await self._calls.call("ZREM", self._key, room_id)
        else:
            await self._calls.call("ZADD", self._key, repr(at), room_id)

    async def due_rooms(self, now: float, limit: int) -> list[tuple[str, float]]:
        async with guarded("due_rooms", self._timeout):
            found: list[Any] = await self._client.zrangebyscore(
                self._key, "-inf", repr(now), start=0, num=limit, withscores=True
            )
        return [(text(member), float(score)) for member, score in found]

    async def repair_due(self, room_id: str, seen: float, at: float | None) -> bool:
        new = "" if at is None else repr(at)
        async with self._calls.guard("repair_due", self._timeout):
            done = await self._calls.script(self._repair, [self._key], [room_id, repr(seen), new])
        return bool(done)
