"""Where the guesses of a room's whole crowd are kept until its move lands: the seam, and
the memory book (``memory://``); ``rooms.backends.redis.guesses`` is the Redis one.

A book keeps, per room and ply (``ply_key``: the game number and the ply guessed at), each
guesser's cell; a guesser who changes their mind overwrites it. ``split`` counts the cells
once, when the move lands. Entries expire by themselves (``GUESS_TTL``): nothing needs to
clean up after a room, whichever worker dies.
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
    async def put(self, room_id: str, key: str, cells: Mapping[str, str]) -> None:
        """Record (or replace) each guesser's cell (``cells``: guesser → cell) for the
        room's ply ``key``, in one write."""

    async def split(self, room_id: str, key: str) -> dict[str, int]:
        """How many guessed each cell for the room's ply ``key`` (every worker's guessers)."""


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
        self._plies: dict[tuple[str, str], tuple[dict[str, str], float]] = {}
        self._lock = threading.Lock()

    async def put(self, room_id: str, key: str, cells: Mapping[str, str]) -> None:
        now = self.clock()
        with self._lock:
            held = self._plies.pop((room_id, key), None)
            kept = held[0] if held is not None and held[1] > now else {}
            kept.update(cells)
            self._plies[(room_id, key)] = (kept, now + self.ttl)  # newest last
            while len(self._plies) > self._max:  # the oldest ply goes first
                del self._plies[next(iter(self._plies))]

    async def split(self, room_id: str, key: str) -> dict[str, int]:
        with self._lock:
            held = self._plies.get((room_id, key))
            if held is None or held[1] <= self.clock():
                return {}
            return dict(Counter(held[0].values()))
