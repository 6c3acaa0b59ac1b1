"""The rating book in Redis: every key of a pool shares the hash tag ``{rating:<pool>}``.

So a Cluster keeps a pool on one slot and one Lua script writes a game's marker, both
players' records, their histories and the leaderboard at once (docs/operations.md, Redis
keys). The script is the compare-and-set of ``rooms.ratings.book``: it writes only if the
marker is absent and both records are still the texts read before the rating was computed.
Like the player directory, the book talks through the room store's client (``of_store``), so
plain Redis, Cluster and Sentinel alike.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rooms.backends.redis.connect import beside, guarded, text
from rooms.backends.redis.keys import KeyLayout
from rooms.backends.store import Store
from rooms.players.record import PLAYER_TTL
from rooms.ratings.book import (
    DONE_TTL,
    HISTORY,
    Book,
    GameWrite,
    PoolRating,
    Written,
    history_entry,
)

__all__ = ["WRITE", "RedisBook"]

WRITE = """
-- KEYS: marker, record 1, record 2, history 1, history 2, leaderboard, provisional players.
-- ARGV: records read (1, 2; '' for none), new records (3, 4), the change (5), history
-- entries (6, 7), leaderboard scores (8, 9; '' takes the player off it and puts them on the
-- provisional players' set with score 15 or 16), player ids (10, 11), record ttl ms (12),
-- marker ttl ms (13), history length (14), ratings (15, 16).
-- {1, change} after writing; {1, marker} when applied already; {0, ''} when a record moved.
local done = redis.call('GET', KEYS[1])
if done then
  return {1, done}
end
local one, two = redis.call('GET', KEYS[2]) or '', redis.call('GET', KEYS[3]) or ''
if one ~= ARGV[1] or two ~= ARGV[2] then
  return {0, ''}
end
redis.call('SET', KEYS[1], ARGV[5], 'PX', ARGV[13])
for i = 0, 1 do
  redis.call('SET', KEYS[2 + i], ARGV[3 + i], 'PX', ARGV[12])
  redis.call('LPUSH', KEYS[4 + i], ARGV[6 + i])
  redis.call('LTRIM', KEYS[4 + i], 0, tonumber(ARGV[14]) - 1)
  redis.call('PEXPIRE', KEYS[4 + i], ARGV[12])
  if ARGV[8 + i] == '' then
    redis.call('ZREM', KEYS[6], ARGV[10 + i])
    redis.call('ZADD', KEYS[7], ARGV[15 + i], ARGV[10 + i])
  else
    redis.call('ZADD', KEYS[6], ARGV[8 + i], ARGV[10 + i])
    redis.call('ZREM', KEYS[7], ARGV[10 + i])
  end
end
return {1, ARGV[5]}
"""


class RedisBook(Book):
    def __init__(
        self,
        client: Any,
        prefix: str,
        *,
        timeout: float = 2.0,
        ttl: float = PLAYER_TTL,
        done_ttl: float = DONE_TTL,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(ttl=ttl, done_ttl=done_ttl, clock=clock)
        self._client = client
        self._layout = KeyLayout(prefix)
        self._timeout = timeout
        self._write_script = client.register_script(WRITE)

    @classmethod
    def of_store(cls, store: Store) -> RedisBook:
        """The book beside a Redis store (its client, key prefix and timeout)."""
        found = beside(store, "rating book")
        return cls(found.client, found.prefix, timeout=found.timeout)

    def _key(self, pool: str, *parts: str) -> str:
        return self._layout.rating(pool, *parts)

    async def _read(
        self, pool: str, game_key: str, players: list[str]
    ) -> tuple[str | None, list[str | None]]:
        keys = [self._key(pool, "done", game_key), *(self._key(pool, "p", p) for p in players)]
        async with guarded("ratings", self._timeout):
            values = await self._client.mget(keys)  # one slot: one command, even on a Cluster
        marker, *records = (text(v) if v is not None else None for v in values)
        return marker, records

    async def _write(self, write: GameWrite) -> Written:
        pool, players = write.pool, write.players
        keys = [
            self._key(pool, "done", write.game_key),
            *(self._key(pool, "p", p) for p in players),
            *(self._key(pool, "h", p) for p in players),
            self._key(pool, "board"),
            self._key(pool, "new"),
        ]
        scores = ["" if r.rating.provisional else repr(r.rating.rating) for r in write.records]
        args = [
            *(r or "" for r in write.read),
            *(r.text() for r in write.records),
            write.change,
            *write.entries,
            *scores,
            *players,
            max(1, round(self.ttl * 1000)),
            max(1, round(self.done_ttl * 1000)),
            HISTORY,
            *(repr(r.rating.rating) for r in write.records),
        ]
        async with guarded("ratings", self._timeout):
            done, value = await self._write_script(keys=keys, args=args)
        return Written(text(value) if int(done) else None)

    async def standing(self, pool: str, player_id: str) -> PoolRating | None:
        async with guarded("ratings", self._timeout):
            value = await self._client.get(self._key(pool, "p", player_id))
        return PoolRating.of_text(text(value)) if value is not None else None

    async def history(self, pool: str, player_id: str) -> list[dict[str, Any]]:
        async with guarded("ratings", self._timeout):
            values = await self._client.lrange(self._key(pool, "h", player_id), 0, HISTORY - 1)
        return [e for e in (history_entry(text(v)) for v in values) if e is not None]

    async def top(self, pool: str, limit: int) -> list[tuple[str, float]]:
        return await self.window(pool, 0, limit - 1) if limit > 0 else []

    async def rank(self, pool: str, player_id: str) -> int | None:
        async with guarded("ratings", self._timeout):
            place = await self._client.zrevrank(self._key(pool, "board"), player_id)
        return int(place) if place is not None else None

    async def provisional(self, pool: str, limit: int) -> list[tuple[str, float]]:
        if limit <= 0:
            return []
        async with guarded("ratings", self._timeout):
            rows = await self._client.zrevrange(
                self._key(pool, "new"), 0, limit - 1, withscores=True
            )
        return [(text(member), float(score)) for member, score in rows]

    async def window(self, pool: str, start: int, stop: int) -> list[tuple[str, float]]:
        async with guarded("ratings", self._timeout):
            rows = await self._client.zrevrange(
                self._key(pool, "board"), max(0, start), stop, withscores=True
            )
        return [(text(member), float(score)) for member, score in rows]
