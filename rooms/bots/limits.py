"""Per-bot limits: games at once, games a day, moves a second (server settings ``bot_*``).

Refusals are ``bot_limit`` errors whose ``field`` names the limit reached, so that a bot (or
the person challenging it) can tell which one. Games at once and games a day are counted in
the store (rooms.bots.desk), for the bot on every worker; moves a second are counted by each
worker for the bot's sockets on it (server.bot_api.gate).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from rooms.errors import ErrorCode, RoomError

__all__ = ["BotLimits", "limit_reached", "today"]


@dataclass(frozen=True, slots=True)
class BotLimits:
    max_games: int = 8
    """Games a bot plays at once (seats in games not over)."""
    games_per_day: int = 1000
    """Games a bot accepts a (UTC) day."""
    moves_per_second: float = 10.0
    """Moves a bot sends a second, sustained (with a burst of twice as many)."""

    def public(self) -> dict[str, float]:
        return {
            "max_games": self.max_games,
            "games_per_day": self.games_per_day,
            "moves_per_second": self.moves_per_second,
        }


def limit_reached(field: str, message: str, *, retry_after: float | None = None) -> RoomError:
    return RoomError(ErrorCode.BOT_LIMIT, message, field=field, retry_after=retry_after)


def today(now: float) -> str:
    """The UTC day of ``now``, as the games-a-day count is keyed."""
    return time.strftime("%Y-%m-%d", time.gmtime(now))
