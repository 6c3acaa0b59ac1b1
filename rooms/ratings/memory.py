"""The rating book of one process (``memory://``): dicts behind one lock.

The lock makes the compare-and-set write one step, as the Redis script is; the records are the
same texts Redis keeps. Markers expire ``done_ttl`` after they were written, as in Redis (the
oldest are dropped as new ones come); ratings and histories do not: a process restart forgets
them with its rooms and identities.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rooms.ratings.book import HISTORY, Book, GameWrite, PoolRating, Written, history_entry

__all__ = ["MemoryBook"]


@dataclass(slots=True)
class _Pool:
    records: dict[str, str] = field(default_factory=dict)
    histories: dict[str, list[str]] = field(default_factory=dict)  # newest first
    done: dict[str, tuple[str, float]] = field(default_factory=dict)  # oldest first: expiry
    board: dict[str, float] = field(default_factory=dict)  # established players' ratings
    newcomers: dict[str, float] = field(default_factory=dict)  # provisional players' ratings


class MemoryBook(Book):
    def __init__(self, *, clock: Callable[[], float] = time.time) -> None:
        super().__init__(clock=clock)
        self._pools: dict[str, _Pool] = {}
        self._lock = threading.Lock()

    def _pool(self, pool: str) -> _Pool:
        return self._pools.setdefault(pool, _Pool())

    async def _read(
        self, pool: str, game_key: str, players: list[str]
    ) -> tuple[str | None, list[str | None]]:
        with self._lock:
            held = self._pool(pool)
            marker = held.done.get(game_key)
            return (marker[0] if marker else None), [held.records.get(p) for p in players]

    async def _write(self, write: GameWrite) -> Written:
        with self._lock:
            held = self._pool(write.pool)
            if write.game_key in held.done:
                return Written(held.done[write.game_key][0])
            if [held.records.get(p) for p in write.players] != write.read:
                return Written(None)
            now = self.clock()
            while held.done and next(iter(held.done.values()))[1] <= now:
                del held.done[next(iter(held.done))]
            held.done[write.game_key] = (write.change, now + self.done_ttl)
            for player, record, entry in zip(
                write.players, write.records, write.entries, strict=True
            ):
                held.records[player] = record.text()
                history = held.histories.setdefault(player, [])
                history.insert(0, entry)
                del history[HISTORY:]
                if record.rating.provisional:
                    held.board.pop(player, None)
                    held.newcomers[player] = record.rating.rating
                else:
                    held.board[player] = record.rating.rating
                    held.newcomers.pop(player, None)
            return Written(write.change)

    async def standing(self, pool: str, player_id: str) -> PoolRating | None:
        with self._lock:
            text = self._pool(pool).records.get(player_id)
        return PoolRating.of_text(text) if text is not None else None

    async def history(self, pool: str, player_id: str) -> list[dict[str, Any]]:
        with self._lock:
            texts = list(self._pool(pool).histories.get(player_id, ()))
        return [e for e in map(history_entry, texts) if e is not None]

    def _ranked(self, pool: str, *, provisional: bool = False) -> list[tuple[str, float]]:
        # best first; equal ratings by player id, as a Redis sorted set read in reverse
        held = self._pool(pool)
        board = held.newcomers if provisional else held.board
        return sorted(board.items(), key=lambda item: (-item[1], _reverse(item[0])))

    async def provisional(self, pool: str, limit: int) -> list[tuple[str, float]]:
        with self._lock:
            return self._ranked(pool, provisional=True)[: max(0, limit)]

    async def top(self, pool: str, limit: int) -> list[tuple[str, float]]:
        with self._lock:
            return self._ranked(pool)[: max(0, limit)]

    async def rank(self, pool: str, player_id: str) -> int | None:
        with self._lock:
            ranked = [player for player, _ in self._ranked(pool)]
        return ranked.index(player_id) if player_id in ranked else None

    async def window(self, pool: str, start: int, stop: int) -> list[tuple[str, float]]:
        with self._lock:
            return self._ranked(pool)[max(0, start) : stop + 1]


def _reverse(text: str) -> list[int]:
    """A key that sorts strings in reverse order (ZREVRANGE's order among equal scores)."""
    return [-ord(c) for c in text] + [1]
