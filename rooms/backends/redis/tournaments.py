"""Tournament records in Redis: one hash per tournament, its own hash tag.

``<prefix>:{tournament:<id>}`` holds ``v`` (the version) and ``d`` (the record's text); one key,
so the compare-and-set script runs on a Cluster's slot as on one Redis. The ids of tournaments
not finished are in the sorted set ``<prefix>:tournaments`` (scored by creation time), written
after the record by a second command: it is an index, so a worker that dies between the two
leaves at most a finished id listed, which the next scan drops (docs/operations.md).
"""

from __future__ import annotations

from typing import Any

from rooms.backends.redis.connect import beside, guarded, text
from rooms.backends.redis.keys import KeyLayout
from rooms.backends.store import Store
from rooms.tournaments.record import Status, TournamentRecord
from rooms.tournaments.shelf import TOURNAMENT_TTL

__all__ = ["COMMIT", "CREATE", "RedisShelf"]

CREATE = """
-- KEYS: the tournament.  ARGV: version, text, ttl (ms).  1 after writing; 0: id taken.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'v', ARGV[1], 'd', ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""

COMMIT = """
-- KEYS: the tournament.  ARGV: expected version, new version, text, ttl (ms).
-- 1 after writing; 0 when the stored version is not the expected one (or it expired).
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'd', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
"""


class RedisShelf:
    def __init__(
        self, client: Any, prefix: str, *, timeout: float = 2.0, ttl: float = TOURNAMENT_TTL
    ) -> None:
        self._client = client
        self._layout = KeyLayout(prefix)
        self._timeout = timeout
        self._ttl_ms = max(1, round(ttl * 1000))
        self._create = client.register_script(CREATE)
        self._commit = client.register_script(COMMIT)

    @classmethod
    def of_store(cls, store: Store) -> RedisShelf:
        """The shelf beside a Redis store (its client, key prefix and timeout)."""
        found = beside(store, "tournaments")
        return cls(found.client, found.prefix, timeout=found.timeout)

    def _key(self, tournament_id: str) -> str:
        return self._layout.tournament(tournament_id)

    async def create(self, record: TournamentRecord) -> bool:
        async with guarded("tournaments", self._timeout):
            done = await self._create(
                keys=[self._key(record.id)], args=[record.version, record.text(), self._ttl_ms]
            )
            if int(done):
                await self._client.zadd(self._layout.tournaments, {record.id: record.created})
        return bool(int(done))

    async def load(self, tournament_id: str) -> TournamentRecord | None:
        async with guarded("tournaments", self._timeout):
            value = await self._client.hget(self._key(tournament_id), "d")
        return TournamentRecord.of_text(text(value)) if value is not None else None

    async def commit(self, record: TournamentRecord, expected: int) -> bool:
        args = [expected, record.version, record.text(), self._ttl_ms]
        async with guarded("tournaments", self._timeout):
            done = await self._commit(keys=[self._key(record.id)], args=args)
            if int(done) and record.status is Status.FINISHED:
                await self._client.zrem(self._layout.tournaments, record.id)
        return bool(int(done))

    async def active(self) -> list[str]:
        async with guarded("tournaments", self._timeout):
            ids = [text(m) for m in await self._client.zrange(self._layout.tournaments, 0, -1)]
            alive = [await self._client.exists(self._key(i)) for i in ids]
            gone = [i for i, here in zip(ids, alive, strict=True) if not here]
            if gone:  # expired records: take their ids off the index
                await self._client.zrem(self._layout.tournaments, *gone)
        return [i for i, here in zip(ids, alive, strict=True) if here]
