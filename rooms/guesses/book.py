"""Where the guesses of a room's whole crowd meet when its move lands: the seam, and the
memory book (``memory://``); ``rooms.backends.redis.guesses`` is the Redis one.

Each worker counts its own spectators' guesses in memory (rooms.guesses.desk) and, when the
move lands, adds its tally (cell -> how many guessed it) to the book once, under its own
name (``counter``): a second write by the same worker replaces its first, so a tally is never
counted twice. ``split`` sums the tallies of every worker, per room and ply (``ply_key``: the
game number and the ply guessed at). Entries expire by themselves (``GUESS_TTL``): nothing
needs to clean up after a room, whichever worker dies.
"""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Mapping
from typing import Protocol

__all__ = ["GUESS_TTL", "GuessBook", "MemoryGuessBook", "ply_key"]

GUESS_TTL = 3600.0
"""Seconds a ply's guesses are kept after the last guess: longer than any live move takes."""


def ply_key(game_number: int, ply: int) -> str:
    """The guesses of a room's game ``game_number`` for the move after ``ply`` moves."""
    return f"{game_number}:{ply}"


class GuessBook(Protocol):
    async def tally(self, room_id: str, key: str, counter: str, counts: Mapping[str, int]) -> None:
        """Record (or replace) the tally ``counts`` (cell -> guesses) that ``counter`` (one
        worker) counted for the room's ply ``key``, in one write."""

    async def split(self, room_id: str, key: str) -> dict[str, int]:
        """How many guessed each cell for the room's ply ``key`` (every counter's tally)."""


class MemoryGuessBook:
    def __init__(
        self,
        *,
        ttl: float = GUESS_TTL,
        max_plies: int = 10_000,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.ttl = ttl
        self.clock = clock
        self._max = max_plies
        self._plies: dict[tuple[str, str], tuple[dict[str, dict[str, int]], float]] = {}
        self._lock = threading.Lock()

    async def tally(self, room_id: str, key: str, counter: str, counts: Mapping[str, int]) -> None:
        now = self.clock()
        with self._lock:
            held = self._plies.pop((room_id, key), None)
            kept = held[0] if held is not None and held[1] > now else {}
            kept[counter] = dict(counts)
            self._plies[(room_id, key)] = (kept, now + self.ttl)  # newest last
            while len(self._plies) > self._max:  # the oldest ply goes first
                del self._plies[next(iter(self._plies))]

    async def split(self, room_id: str, key: str) -> dict[str, int]:
        with self._lock:
            held = self._plies.get((room_id, key))
            if held is None or held[1] <= self.clock():
                return {}
            total: Counter[str] = Counter()
            for counts in held[0].values():
                total.update(counts)
            return dict(total)
