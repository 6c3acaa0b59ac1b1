"""Where tournament records live: the seam, and the memory shelf (``memory://``).

A shelf stores each record as its text with its version, and writes a change only if the
stored version is still the one the change was made from (compare-and-set): memory under a
lock, Redis in one Lua script (``rooms.backends.redis.tournaments``). It also keeps the ids
of the tournaments not yet finished, which workers scan for due work and the lobby lists.
A record lives ``ttl`` seconds after its last change (docs/operations.md).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol

from rooms.tournaments.record import Status, TournamentRecord

__all__ = ["TOURNAMENT_TTL", "MemoryShelf", "TournamentShelf"]

TOURNAMENT_TTL = 7 * 24 * 3600.0
"""Seconds a tournament is kept after its last change: a finished one's table stays a week."""


class TournamentShelf(Protocol):
    async def create(self, record: TournamentRecord) -> bool:
        """Store a new record (version 0); False when its id is taken."""

    async def load(self, tournament_id: str) -> TournamentRecord | None:
        """The stored record (None: none, or it expired)."""

    async def commit(self, record: TournamentRecord, expected: int) -> bool:
        """Write ``record`` (its ``version`` is ``expected + 1``) if the stored version is
        still ``expected``; False, writing nothing, otherwise."""

    async def active(self) -> list[str]:
        """The ids of the tournaments not finished, oldest first."""


class MemoryShelf:
    def __init__(
        self, *, ttl: float = TOURNAMENT_TTL, clock: Callable[[], float] = time.time
    ) -> None:
        self.ttl = ttl
        self.clock = clock
        self._records: dict[str, tuple[str, int, float]] = {}  # text, version, expiry
        self._active: dict[str, float] = {}  # id: created
        self._lock = threading.Lock()

    def _live(self, tournament_id: str) -> tuple[str, int, float] | None:
        held = self._records.get(tournament_id)
        if held is not None and held[2] <= self.clock():
            del self._records[tournament_id]
            self._active.pop(tournament_id, None)
            return None
        return held

    async def create(self, record: TournamentRecord) -> bool:
        with self._lock:
            if self._live(record.id) is not None:
                return False
            self._records[record.id] = (record.text(), record.version, self.clock() + self.ttl)
            self._active[record.id] = record.created
            return True

    async def load(self, tournament_id: str) -> TournamentRecord | None:
        with self._lock:
            held = self._live(tournament_id)
        return TournamentRecord.of_text(held[0]) if held is not None else None

    async def commit(self, record: TournamentRecord, expected: int) -> bool:
        with self._lock:
            held = self._live(record.id)
            if held is None or held[1] != expected:
                return False
            self._records[record.id] = (record.text(), record.version, self.clock() + self.ttl)
            if record.status is Status.FINISHED:
                self._active.pop(record.id, None)
            return True

    async def active(self) -> list[str]:
        with self._lock:
            ids = sorted(self._active, key=lambda i: (self._active[i], i))
            return [i for i in ids if self._live(i) is not None]
