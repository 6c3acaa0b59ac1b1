"""The bots' settings: where the server's own bots think, and the limits of bot accounts.

A group of fields that ``Settings`` (server.settings) inherits: each is still one flat setting,
built as ``Settings(bot_budget=...)``, read as ``settings.bot_budget``, set by
``TICTACTOE_BOT_BUDGET`` and listed in docs/operations.md's settings table. None has a flag.
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import SettingsError
from .settings_checks import positive_int, positive_number

__all__ = ["BotSettings"]


@dataclass(frozen=True)
class BotSettings:
    """Never built alone: ``Settings`` inherits these fields and calls ``_check_bots``.

    No slots of its own (``__slots__ = ()``): ``Settings`` keeps every field in its slots, as a
    class cannot inherit slots from two bases."""

    __slots__ = ()

    bot_budget: float = 1.0
    """Seconds a bot may think per move."""
    bot_grace: float = 2.0
    """How long past its budget a bot's move may be missing before any worker redoes it."""
    bot_pool: str = "process"
    """Where bots think: ``process`` (a process pool: the search never holds the event
    loop's GIL) or ``thread``."""
    bot_workers: int = 2
    # Bot accounts (docs/protocol.md, "Bots"): limits per bot, and how its socket is served
    bot_max_games: int = 8
    """Games a bot account plays at once; a challenge past it is refused (``bot_limit``)."""
    bot_games_per_day: int = 1000
    """Games a bot account accepts a UTC day."""
    bot_moves_per_second: float = 10.0
    """Moves a second a bot account may send, sustained (a burst of twice as many), per
    worker; past it a move is refused ``bot_limit`` (nothing played)."""
    bot_auth_rate: float = 2.0
    """Token checks a second per bot id and worker (sockets opened, joins); past it they are
    refused ``rate_limited``: nobody tries tokens fast."""
    bot_poll: float = 0.25
    """Seconds between two looks of a bot's socket at its desk (challenges, seats, its
    token still valid): how soon a bot hears of a challenge made on another worker."""

    def _check_bots(self) -> None:
        for name in ("bot_workers", "bot_max_games", "bot_games_per_day"):
            positive_int(self, name)
        for name in (
            "bot_budget",
            "bot_grace",
            "bot_moves_per_second",
            "bot_auth_rate",
            "bot_poll",
        ):
            positive_number(self, name)
        if self.bot_pool not in {"process", "thread"}:
            raise SettingsError("bot_pool", f'must be "process" or "thread", got {self.bot_pool!r}')
