"""The fair-play ledger in Redis (rooms.fairplay.ledger): every key shares the hash tag
``{fairplay}``, so one Lua script writes a game's marker and both players' counts at once,
on a Cluster too; it talks through the room store's client (``of_store``), like the rating
book."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from core.fairplay import Judged
from rooms.backends.redis.connect import beside, guarded, text
from rooms.backends.redis.keys import KeyLayout
from rooms.backends.store import Store
from rooms.fairplay.ledger import DONE_TTL, FLAG_CRITICAL, FLAG_RATE, Summary
from rooms.players.record import PLAYER_TTL

__all__ = ["RECORD", "RedisLedger"]

RECORD = """
-- KEYS: marker, flagged set, then each player's hash. ARGV: marker ttl ms, counts ttl ms,
-- flag's critical positions, flag's rate, then per player: id, critical, matched.
-- {0} when counted before; else {1, games, critical, matched, ...} per player, after.
if redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1]) == false then
  return {0}
end
local out = {1}
for i = 3, #KEYS do
  local at = 5 + (i - 3) * 3
  local id = ARGV[at]
  local games = redis.call('HINCRBY', KEYS[i], 'games', 1)
  local critical = redis.call('HINCRBY', KEYS[i], 'critical', tonumber(ARGV[at + 1]))
  local matched = redis.call('HINCRBY', KEYS[i], 'matched', tonumber(ARGV[at + 2]))
  redis.call('PEXPIRE', KEYS[i], ARGV[2])
  if critical >= tonumber(ARGV[3]) and matched >= tonumber(ARGV[4]) * critical then
    redis.call('SADD', KEYS[2], id)
  else
    redis.call('SREM', KEYS[2], id)
  end
  table.insert(out, games)
  table.insert(out, critical)
  table.insert(out, matched)
end
return out
"""


class RedisLedger:
    def __init__(self, client: Any, prefix: str, *, timeout: float = 2.0) -> None:
        self._client = client
        self._layout = KeyLayout(prefix)
        self._timeout = timeout
        self._record = client.register_script(RECORD)

    @classmethod
    def of_store(cls, store: Store) -> RedisLedger:
        """The ledger beside a Redis store (its client, key prefix and timeout)."""
        found = beside(store, "fair-play ledger")
        return cls(found.client, found.prefix, timeout=found.timeout)

    async def record(self, game_key: str, judged: Mapping[str, Judged]) -> list[Summary] | None:
        players = list(judged)
        keys = [
            self._layout.fairplay("done", game_key),
            self._layout.fairplay("flagged"),
            *(self._layout.fairplay("p", p) for p in players),
        ]
        args: list[Any] = [
            max(1, round(DONE_TTL * 1000)),
            max(1, round(PLAYER_TTL * 1000)),
            FLAG_CRITICAL,
            repr(FLAG_RATE),
        ]
        for player_id in players:
            args += [player_id, judged[player_id].critical, judged[player_id].matched]
        async with guarded("fairplay", self._timeout):
            reply = await self._record(keys=keys, args=args)
        if int(reply[0]) == 0:
            return None
        counts = [int(n) for n in reply[1:]]
        return [
            Summary(player_id, *counts[3 * i : 3 * i + 3]) for i, player_id in enumerate(players)
        ]

    async def summary(self, player_id: str) -> Summary:
        async with guarded("fairplay", self._timeout):
            values = await self._client.hmget(
                self._layout.fairplay("p", player_id), ["games", "critical", "matched"]
            )
        games, critical, matched = (int(text(v)) if v is not None else 0 for v in values)
        return Summary(player_id, games, critical, matched)

    async def flagged(self, limit: int) -> list[str]:
        async with guarded("fairplay", self._timeout):
            members = await self._client.smembers(self._layout.fairplay("flagged"))
        return sorted(text(m) for m in members)[: max(0, limit)]
