"""Each player's correspondence games in Redis (rooms.backends.due): one set per identity.

``<prefix>:player:{<id>}:games`` (``keys``) holds the correspondence rooms a player is seated
in, so the lobby can show a player their games. A correspondence commit records the room under
each seated player after the commit (``record``: a player's set sits on that player's slot,
never the room's), so a Cluster, or a worker dying in between, may miss a record until the
room's next commit writes it again; readers drop the games that are over or gone
(``forget_player_room``).
A set lives at least as long as the longest game it records (``PLAYER_GAME``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from rooms.backends.redis.batch import LuaScript, RedisCalls
from rooms.backends.redis.connect import RedisClient, guarded, text
from rooms.backends.redis.keys import KeyLayout

__all__ = ["PLAYER_GAME", "RedisPlayerGames"]

PLAYER_GAME = """
-- KEYS: a player's games.  ARGV: room, milliseconds to keep the set at least.  The room is
-- recorded and the set kept that long (never shortened: a room of a longer game may be there).
redis.call('SADD', KEYS[1], ARGV[1])
if redis.call('PEXPIRE', KEYS[1], ARGV[2], 'GT') == 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[2], 'NX')
end
return 1
"""


class RedisPlayerGames:
    """The players' records on the store's client, hot calls and key layout (``RedisStore``
    answers rooms.backends.due.DueIndex's player half through it)."""

    def __init__(
        self, client: RedisClient, calls: RedisCalls, layout: KeyLayout, timeout: float
    ) -> None:
        self._client = client
        self._calls = calls
        self._layout = layout
        self._timeout = timeout
        self._record = LuaScript(PLAYER_GAME)

    async def record(self, room_id: str, players: Iterable[str], keep_ms: int) -> None:
        """Record ``room_id`` under each of ``players``, keeping their sets ``keep_ms`` at
        least; sent inside the caller's guarded block."""
        # one script a player (their sets are on other slots), sent together: one round trip
        # when auto-pipelined
        await asyncio.gather(
            *(
                self._calls.script(self._record, [self._layout.player_games(p)], [room_id, keep_ms])
                for p in players
            )
        )

    async def player_rooms(self, player_id: str, limit: int) -> list[str]:
        async with guarded("player_rooms", self._timeout):
            members = await self._client.smembers(self._layout.player_games(player_id))
        return sorted(text(member) for member in members)[:limit]

    async def forget_player_room(self, player_id: str, room_id: str) -> None:
        async with guarded("forget_player_room", self._timeout):
            await self._client.srem(self._layout.player_games(player_id), room_id)
