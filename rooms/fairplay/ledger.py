"""The fair-play ledger: per identity, the games judged and their critical positions and
matches (core.fairplay), each game counted once, and who is flagged.

``FairPlayLedger`` is the seam: ``MemoryLedger`` here, ``rooms.backends.redis.fairplay``'s
``RedisLedger`` for every Redis URL. ``record`` adds a judged game to its players' counts
only if the game's marker is absent, in one atomic step with writing it, so a retry, a
second worker or a restarted one never counts a game twice.

A player is **flagged** once their counts reach ``FLAG_CRITICAL`` critical positions at a
match rate of ``FLAG_RATE`` or more: a mark for an operator to look at the games, never a
sanction (docs/operations.md, "Fair play", says what the rate can and cannot tell).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from core.fairplay import Judged

__all__ = [
    "DONE_TTL",
    "FLAG_CRITICAL",
    "FLAG_RATE",
    "FairPlayLedger",
    "MemoryLedger",
    "Summary",
]

FLAG_CRITICAL = 60
"""Critical positions a player must have before a rate can flag them: a handful of games
says nothing, a strong player matches perfect play often."""
FLAG_RATE = 0.97
"""The match rate, over at least ``FLAG_CRITICAL`` critical positions, that flags."""
DONE_TTL = 30 * 24 * 3600.0
"""Seconds a game's marker is kept (far beyond a room's life, as the rating book's)."""


@dataclass(frozen=True, slots=True)
class Summary:
    """One identity's fair-play counts."""

    player_id: str
    games: int = 0
    critical: int = 0
    matched: int = 0

    @property
    def rate(self) -> float | None:
        return self.matched / self.critical if self.critical else None

    @property
    def flagged(self) -> bool:
        rate = self.rate
        return self.critical >= FLAG_CRITICAL and rate is not None and rate >= FLAG_RATE

    def public(self) -> dict[str, Any]:
        rate = self.rate
        return {
            "player_id": self.player_id,
            "games": self.games,
            "critical": self.critical,
            "matched": self.matched,
            "rate": round(rate, 4) if rate is not None else None,
            "flagged": self.flagged,
        }


class FairPlayLedger(Protocol):
    async def record(self, game_key: str, judged: Mapping[str, Judged]) -> list[Summary] | None:
        """Add one judged game (``judged``: player id → the game's counts) to its players'
        counts, once per ``game_key``; their summaries after, or None when the game was
        counted before."""

    async def summary(self, player_id: str) -> Summary:
        """The player's counts (zeros for a player never judged)."""

    async def flagged(self, limit: int) -> list[str]:
        """Up to ``limit`` flagged player ids."""


class MemoryLedger:
    """The ledger of one process (``memory://``)."""

    def __init__(self, *, clock: Callable[[], float] = time.time) -> None:
        self._clock = clock
        self._done: dict[str, float] = {}  # game key -> when it expires
        self._counts: dict[str, Summary] = {}
        self._flagged: dict[str, None] = {}  # insertion-ordered set

    async def record(self, game_key: str, judged: Mapping[str, Judged]) -> list[Summary] | None:
        now = self._clock()
        if self._done.get(game_key, 0.0) > now:
            return None
        self._done[game_key] = now + DONE_TTL
        after = []
        for player_id, counts in judged.items():
            was = self._counts.get(player_id, Summary(player_id))
            now_summary = Summary(
                player_id,
                was.games + 1,
                was.critical + counts.critical,
                was.matched + counts.matched,
            )
            self._counts[player_id] = now_summary
            if now_summary.flagged:
                self._flagged[player_id] = None
            else:
                self._flagged.pop(player_id, None)
            after.append(now_summary)
        return after

    async def summary(self, player_id: str) -> Summary:
        return self._counts.get(player_id, Summary(player_id))

    async def flagged(self, limit: int) -> list[str]:
        return list(self._flagged)[: max(0, limit)]
