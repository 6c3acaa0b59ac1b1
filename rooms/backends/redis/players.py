"""The player directory in Redis: one hash per identity, shared by every worker and host.

``<prefix>:player:{<id>}`` holds ``h`` (the secret's SHA-256), ``n`` (the name), ``c`` and ``s``
(created, last seen) and expires ``ttl`` seconds (``PLAYER_TTL``, 400 days) after its last
use. A read is one HGETALL; creating and updating are one Lua script each on that one key, so
they run on a Cluster's slot as on one Redis, and through Sentinel on the current primary:
the directory talks through the room store's own client (``of_store``), like the quick-play
queue. The update is a compare-and-set on the record the caller read (its secret's hash is
still the one that was checked), so a rename never writes a record that expired meanwhile
and never leaves a partial one.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from rooms.backends.redis.connect import beside, guarded, text
from rooms.backends.redis.keys import KeyLayout
from rooms.backends.store import Store
from rooms.players.directory import Directory
from rooms.players.record import PLAYER_TTL

__all__ = ["CREATE", "SET_TOKEN", "UPDATE", "RedisDirectory"]

CREATE = """
-- KEYS: the player.  ARGV: secret hash, name, created, last seen, ttl (ms), bot ('1' or '').
-- 1 after writing the new record; 0 when the id is taken.
if redis.call('EXISTS', KEYS[1]) == 1 then
  return 0
end
redis.call('HSET', KEYS[1], 'h', ARGV[1], 'n', ARGV[2], 'c', ARGV[3], 's', ARGV[4])
if ARGV[6] == '1' then
  redis.call('HSET', KEYS[1], 'b', '1')
end
redis.call('PEXPIRE', KEYS[1], ARGV[5])
return 1
"""

UPDATE = """
-- KEYS: the player.  ARGV: the secret hash read (and checked) before, last seen, ttl (ms),
-- the new name ('' keeps the name).  1 after updating; 0 when the record is not that one.
if redis.call('HGET', KEYS[1], 'h') ~= ARGV[1] then
  return 0
end
redis.call('HSET', KEYS[1], 's', ARGV[2])
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[1], 'n', ARGV[4])
end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return 1
"""

SET_TOKEN = """
-- KEYS: the player.  ARGV: the bot token's hash ('' revokes), ttl (ms).
-- 1 after writing it; 0 when the record is not a bot's.
if redis.call('HGET', KEYS[1], 'b') ~= '1' then
  return 0
end
redis.call('HSET', KEYS[1], 't', ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1
"""


class RedisDirectory(Directory):
    def __init__(
        self,
        client: Any,
        prefix: str,
        *,
        timeout: float = 2.0,
        ttl: float = PLAYER_TTL,
        clock: Callable[[], float] = time.time,
    ) -> None:
        super().__init__(ttl=ttl, clock=clock)
        self._client = client
        self._layout = KeyLayout(prefix)
        self._timeout = timeout
        self._ttl_ms = max(1, round(self.ttl * 1000))
        self._create = client.register_script(CREATE)
        self._update_script = client.register_script(UPDATE)
        self._token_script = client.register_script(SET_TOKEN)

    @classmethod
    def of_store(cls, store: Store, *, ttl: float = PLAYER_TTL) -> RedisDirectory:
        """The directory beside a Redis store (its client, key prefix and timeout)."""
        found = beside(store, "player directory")
        return cls(found.client, found.prefix, timeout=found.timeout, ttl=ttl)

    async def _insert(self, player_id: str, fields: dict[str, str]) -> bool:
        args = [
            fields["h"],
            fields["n"],
            fields["c"],
            fields["s"],
            self._ttl_ms,
            fields.get("b", ""),
        ]
        async with guarded("players", self._timeout):
            created = await self._create(keys=[self._layout.player(player_id)], args=args)
        return bool(int(created))

    async def _read(self, player_id: str) -> dict[str, str] | None:
        async with guarded("players", self._timeout):
            raw = await self._client.hgetall(self._layout.player(player_id))
        return {text(key): text(value) for key, value in raw.items()} if raw else None

    async def _update(
        self, player_id: str, secret_hash: str, seen: float, name: str | None
    ) -> bool:
        args = [secret_hash, repr(seen), self._ttl_ms, name or ""]
        async with guarded("players", self._timeout):
            updated = await self._update_script(keys=[self._layout.player(player_id)], args=args)
        return bool(int(updated))

    async def _set_token(self, player_id: str, token_hash: str) -> bool:
        async with guarded("players", self._timeout):
            done = await self._token_script(
                keys=[self._layout.player(player_id)], args=[token_hash, self._ttl_ms]
            )
        return bool(int(done))
