"""The push book in Redis: one hash per identity, and the VAPID key, shared by every worker.

``<prefix>:push:{<id>}`` maps each subscribed browser's endpoint to the JSON of its keys and
the time it was added; it expires ``PLAYER_TTL`` after its last change, as the identity does.
Adding is one Lua script on that one key (replace the endpoint's own, else drop the oldest
past ``MAX_PER_PLAYER``), so it runs on a Cluster's slot as on one Redis. ``<prefix>:vapid``
holds the VAPID private key: the first worker's ``SET NX`` stores it, every later one reads
that one. It talks through the room store's client (``of_store``), like the player directory.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from rooms.backends.redis.connect import beside, guarded, text
from rooms.backends.redis.keys import KeyLayout
from rooms.backends.store import Store
from rooms.players.record import PLAYER_TTL
from rooms.push.book import MAX_PER_PLAYER
from rooms.push.subscription import PushSubscription

__all__ = ["ADD", "RedisPushBook"]

ADD = """
-- KEYS: the player's subscriptions.  ARGV: endpoint, its JSON, the most kept, ttl (ms).
-- Drops the oldest (by the "at" of each JSON) while the player is at the most.
redis.call('HDEL', KEYS[1], ARGV[1])
local most = tonumber(ARGV[3])
while redis.call('HLEN', KEYS[1]) >= most do
  local fields = redis.call('HGETALL', KEYS[1])
  local oldest, oldest_at = nil, nil
  for i = 1, #fields, 2 do
    local ok, held = pcall(cjson.decode, fields[i + 1])
    local at = (ok and type(held) == 'table' and tonumber(held['at'])) or 0
    if oldest == nil or at < oldest_at then
      oldest, oldest_at = fields[i], at
    end
  end
  redis.call('HDEL', KEYS[1], oldest)
end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1
"""

VAPID = """
-- KEYS: the VAPID key.  ARGV: a new key.  The stored key (the new one when none was).
if redis.call('SET', KEYS[1], ARGV[1], 'NX') then
  return ARGV[1]
end
return redis.call('GET', KEYS[1])
"""


class RedisPushBook:
    def __init__(
        self,
        client: Any,
        prefix: str,
        *,
        timeout: float = 2.0,
        ttl: float = PLAYER_TTL,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._client = client
        self._layout = KeyLayout(prefix)
        self._timeout = timeout
        self._ttl_ms = max(1, round(ttl * 1000))
        self._clock = clock
        self._add = client.register_script(ADD)
        self._vapid = client.register_script(VAPID)

    @classmethod
    def of_store(cls, store: Store) -> RedisPushBook:
        """The book beside a Redis store (its client, key prefix and timeout)."""
        found = beside(store, "push book")
        return cls(found.client, found.prefix, timeout=found.timeout)

    async def add(self, player_id: str, subscription: PushSubscription) -> None:
        held = {"p256dh": subscription.p256dh, "auth": subscription.auth, "at": self._clock()}
        args = [subscription.endpoint, json.dumps(held), MAX_PER_PLAYER, self._ttl_ms]
        async with guarded("push", self._timeout):
            await self._add(keys=[self._layout.push(player_id)], args=args)

    async def remove(self, player_id: str, endpoint: str) -> bool:
        async with guarded("push", self._timeout):
            removed = await self._client.hdel(self._layout.push(player_id), endpoint)
        return bool(int(removed))

    async def of(self, player_id: str) -> list[PushSubscription]:
        async with guarded("push", self._timeout):
            raw = await self._client.hgetall(self._layout.push(player_id))
        found = []
        for endpoint, value in raw.items():
            try:
                held = json.loads(text(value))
                found.append(PushSubscription(text(endpoint), held["p256dh"], held["auth"]))
            except (ValueError, KeyError, TypeError):
                continue  # not ours: never sent to, and replaced by the next subscribe
        return found

    async def vapid_key(self, candidate: str) -> str:
        async with guarded("push", self._timeout):
            stored = await self._vapid(keys=[self._layout.vapid], args=[candidate])
        return text(stored)
