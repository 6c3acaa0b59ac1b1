"""Where a bot's token is checked, and its per-worker limits kept (docs/protocol.md, "Bots").

Every use of a token reads the bot's record in the store (rooms.bots.accounts): the bot
socket's hello and each of its looks at the desk, a room join, and each move a bot's seat
sends. A rotated or revoked token is therefore refused at the next use on every worker,
with no cache to go stale. Token checks that open something (a socket, a join) are limited
per bot id (``bot_auth_rate``), so tokens cannot be tried fast; moves are limited per bot
(``bot_moves_per_second``). Tokens never reach a log line: they are neither logged here nor
in a ``repr`` (server.logs.redact also masks any that a message quotes).
"""

from __future__ import annotations

import time
from collections.abc import Callable

from rooms import ErrorCode, RoomError
from rooms.bots import BotLimits, authenticate, bot_of_token
from rooms.bots.limits import limit_reached
from rooms.players import Player, PlayerDirectory

from ..settings import Settings
from ..ws.limits import TokenBucket
from . import metrics

__all__ = ["BotGate"]

AUTH_BURST = 10
"""Token checks a bot may make at once (a bot coming back to its games rejoins each)."""
_MOST_BUCKETS = 10_000
"""Per-bot buckets kept at most; past it the full ones (idle bots') are forgotten."""


class BotGate:
    def __init__(
        self,
        directory: PlayerDirectory,
        settings: Settings,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.directory = directory
        self.limits = BotLimits(
            max_games=settings.bot_max_games,
            games_per_day=settings.bot_games_per_day,
            moves_per_second=settings.bot_moves_per_second,
        )
        self._auth_rate = settings.bot_auth_rate
        self._clock = clock
        self._auth: dict[str, TokenBucket] = {}
        self._moves: dict[str, TokenBucket] = {}

    def _take(self, buckets: dict[str, TokenBucket], bot_id: str, rate: float, burst: int) -> bool:
        now = self._clock()
        bucket = buckets.get(bot_id)
        if bucket is None:
            if len(buckets) >= _MOST_BUCKETS:  # forget the idle bots' (full) buckets
                for key in [key for key, b in buckets.items() if b.take(now) and b.full]:
                    del buckets[key]
            bucket = buckets[bot_id] = TokenBucket(rate, burst, now)
        return bucket.take(now)

    def throttle(self, bot_id: str) -> None:
        """Count a token or secret check for ``bot_id``; ``rate_limited`` past the rate."""
        if not self._take(self._auth, bot_id, self._auth_rate, AUTH_BURST):
            metrics.refused("auth_rate")
            raise RoomError(
                ErrorCode.RATE_LIMITED,
                "too many token checks for this bot; wait a moment",
                retry_after=1.0 / self._auth_rate,
            )

    async def authenticate(self, token: str) -> Player:
        """The bot ``token`` is the current token of; ``bad_identity`` (one answer for an
        unknown bot, a wrong, rotated or revoked token), ``rate_limited`` past the rate."""
        bot_id = bot_of_token(token)
        if bot_id is not None:
            self.throttle(bot_id)
        bot = await authenticate(self.directory, token) if bot_id is not None else None
        if bot is None:
            metrics.authenticated(False)
            raise RoomError(ErrorCode.BAD_IDENTITY, "this bot token is not valid (any more)")
        metrics.authenticated(True)
        return bot

    async def still_valid(self, token: str) -> bool:
        """Whether ``token`` is still its bot's (a store read; not rate-limited: the server
        asks, not the client)."""
        return await authenticate(self.directory, token) is not None

    async def check(self, bot_id: str, token: str, *, move: bool) -> None:
        """Before a bot seat's command: for a ``move``, within its moves a second
        (``bot_limit``, field ``moves_per_second``); its token still valid (``bad_identity``)."""
        rate = self.limits.moves_per_second
        if move and not self._take(self._moves, bot_id, rate, max(1, round(2 * rate))):
            metrics.refused("moves_per_second")
            raise limit_reached(
                "moves_per_second",
                f"a bot sends at most {rate:g} moves a second; nothing was played",
                retry_after=1.0 / rate,
            )
        if not await self.still_valid(token):
            raise RoomError(ErrorCode.BAD_IDENTITY, "this bot token was revoked; nothing played")
        if move:
            metrics.moved()
