"""The rating book: each identity's Glicko-2 rating per pool, applied once per rated game.

``RatingBook`` is the seam (``open_backend`` builds one beside the room store:
``Backend.ratings``); ``MemoryBook`` serves ``memory://`` and
``rooms.backends.redis.ratings.RedisBook`` every Redis URL. ``Book`` implements it once over
two storage primitives: read a game's marker and its two players' records, and write the
marker, both records, their histories and the leaderboard in one atomic step, only if the
marker is still absent and both records are still the ones read (a compare-and-set). So a
game's ratings change once, whoever applies it and however often: a retry, a second worker,
a worker that restarted after a crash all find the marker and get the change it recorded.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from core.glicko2 import Rating, games_to_establish, rate_game
from rooms.errors import ErrorCode, RoomError
from rooms.players.record import PLAYER_TTL

__all__ = [
    "DONE_TTL",
    "HISTORY",
    "Book",
    "GameWrite",
    "PoolRating",
    "RatingBook",
    "Written",
    "history_entry",
]

HISTORY = 30
"""Entries of rating history kept per player and pool (the newest)."""
DONE_TTL = 30 * 24 * 3600.0
"""Seconds a game's marker is kept: far beyond a room's life (``room_ttl``, a day untouched),
within which any re-application of its end must come."""
_ATTEMPTS = 32


@dataclass(frozen=True, slots=True)
class PoolRating:
    """One identity's standing in one pool."""

    rating: Rating
    games: int = 0
    updated: float = 0.0

    def public(self) -> dict[str, Any]:
        r = self.rating
        return {
            "rating": round(r.rating, 1),
            "deviation": round(r.deviation, 1),
            "volatility": round(r.volatility, 6),
            "provisional": r.provisional,
            "games": self.games,
            "games_to_rank": games_to_establish(r),
        }

    def text(self) -> str:
        r = self.rating
        return json.dumps([r.rating, r.deviation, r.volatility, self.games, self.updated])

    @classmethod
    def of_text(cls, text: str | None) -> PoolRating:
        """The stored record (None or unreadable: a newcomer's)."""
        if text is None:
            return cls(Rating())
        try:
            rating, deviation, volatility, games, updated = json.loads(text)
            return cls(Rating(rating, deviation, volatility), int(games), float(updated))
        except (ValueError, TypeError):
            return cls(Rating())


@dataclass(frozen=True, slots=True)
class Written:
    """What the write primitive did: ``change`` is the game's recorded change (the one just
    written, or the one a marker already held); None: a record changed since it was read."""

    change: str | None


@dataclass(frozen=True, slots=True)
class GameWrite:
    """One game's compare-and-set write: in ``pool``, the marker ``game_key`` (room id and
    game number), the ``players``' records as ``read`` and as they become (``records``), the
    ``change`` (JSON text) and one history entry (JSON text) per player."""

    pool: str
    game_key: str
    players: list[str]
    read: list[str | None]
    records: list[PoolRating]
    change: str
    entries: list[str]


class RatingBook(Protocol):
    async def apply(self, entry: dict[str, Any], room_id: str) -> dict[str, Any]:
        """Apply the rated game ``entry`` (rooms.room.rated) of ``room_id`` once: its change by
        mark (before, after, provisional, ...), the same however often it is asked."""

    async def standing(self, pool: str, player_id: str) -> PoolRating | None:
        """The player's rating in ``pool`` (None: never rated there)."""

    async def history(self, pool: str, player_id: str) -> list[dict[str, Any]]:
        """The player's last ratings in ``pool``, newest first (at most ``HISTORY``)."""

    async def top(self, pool: str, limit: int) -> list[tuple[str, float]]:
        """The best established (not provisional) players: (player id, rating), best first."""

    async def provisional(self, pool: str, limit: int) -> list[tuple[str, float]]:
        """The best provisional players (not on the leaderboard yet): (player id, rating),
        best first."""

    async def rank(self, pool: str, player_id: str) -> int | None:
        """The 0-based place of an established player on the leaderboard (None: not on it)."""

    async def window(self, pool: str, start: int, stop: int) -> list[tuple[str, float]]:
        """Leaderboard places ``start`` to ``stop`` (inclusive, 0-based), best first."""


class Book:
    """``RatingBook`` over the storage primitives of a subclass."""

    def __init__(
        self,
        *,
        ttl: float = PLAYER_TTL,
        done_ttl: float = DONE_TTL,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.ttl = ttl
        self.done_ttl = done_ttl
        self.clock = clock

    # -- storage primitives ---------------------------------------------------------------

    async def _read(
        self, pool: str, game_key: str, players: list[str]
    ) -> tuple[str | None, list[str | None]]:
        """The game's marker (None: not applied) and the players' records (None: none)."""
        raise NotImplementedError

    async def _write(self, write: GameWrite) -> Written:
        """Atomically, only if the marker is absent and the records are still ``write.read``:
        store ``change`` as the marker, the new ``records``, push ``entries`` on the histories
        (capped at ``HISTORY``) and put each player on the leaderboard if established (off it
        if provisional)."""
        raise NotImplementedError

    # -- the seam -------------------------------------------------------------------------

    async def apply(self, entry: dict[str, Any], room_id: str) -> dict[str, Any]:
        pool, players, marks = entry["pool"], list(entry["players"]), list(entry["marks"])
        game_number, score = int(entry["game_number"]), float(entry["score"])
        game_key = f"{room_id}:{game_number}"
        for _ in range(_ATTEMPTS):
            marker, read = await self._read(pool, game_key, players)
            if marker is not None:
                return dict(json.loads(marker))
            before = [PoolRating.of_text(text) for text in read]
            first, second = rate_game(before[0].rating, before[1].rating, score)
            now = self.clock()
            after = [
                PoolRating(rating, old.games + 1, now)
                for rating, old in zip((first, second), before, strict=True)
            ]
            change = {
                mark: {
                    "player_id": player,
                    "before": round(old.rating.rating, 1),
                    "after": round(new.rating.rating, 1),
                    "deviation": round(new.rating.deviation, 1),
                    "provisional": new.rating.provisional,
                    "games": new.games,
                    "games_to_rank": games_to_establish(new.rating),
                }
                for mark, player, old, new in zip(marks, players, before, after, strict=True)
            }
            entries = [
                json.dumps([now, round(new.rating.rating, 1), room_id, game_number])
                for new in after
            ]
            write = GameWrite(pool, game_key, players, read, after, json.dumps(change), entries)
            written = await self._write(write)
            if written.change is not None:
                return dict(json.loads(written.change))
        raise RoomError(ErrorCode.BUSY, f"ratings of pool {pool!r} are changing too fast")


def history_entry(text: str) -> dict[str, Any] | None:
    """A stored history entry as the API shows it (None: unreadable)."""
    try:
        at, rating, room_id, game_number = json.loads(text)
        return {"at": at, "rating": rating, "room_id": room_id, "game_number": game_number}
    except (ValueError, TypeError):
        return None
