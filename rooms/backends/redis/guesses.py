"""The guess book in Redis: one hash per room and ply, shared by every worker.

Each worker that counted guesses of a move writes its tally there once, when the move lands
(``HSET`` its counter name -> the tally as JSON, then a ``PEXPIRE``, in one pipeline: a
second write replaces the first), and each worker with spectators of the room reads it once
(``HVALS``) a moment later and sums the tallies: the split is the whole crowd's, whichever
worker each spectator is on. The key carries the room's hash tag, so on a Cluster it lives
on the room's slot. It talks through the room store's client (``of_store``), like the player
directory.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from rooms.backends.redis.connect import beside, guarded, text
from rooms.backends.redis.keys import KeyLayout
from rooms.backends.store import Store
from rooms.common.jsontext import dumps, loads
from rooms.guesses.book import GUESS_TTL

__all__ = ["RedisGuessBook"]


class RedisGuessBook:
    def __init__(
        self, client: Any, prefix: str, *, timeout: float = 2.0, ttl: float = GUESS_TTL
    ) -> None:
        self._client = client
        self._layout = KeyLayout(prefix)
        self._timeout = timeout
        self._ttl_ms = max(1, round(ttl * 1000))

    @classmethod
    def of_store(cls, store: Store) -> RedisGuessBook:
        """The book beside a Redis store (its client, key prefix and timeout)."""
        found = beside(store, "guess book")
        return cls(found.client, found.prefix, timeout=found.timeout)

    async def tally(self, room_id: str, key: str, counter: str, counts: Mapping[str, int]) -> None:
        name = self._layout.guesses(room_id, key)
        async with guarded("guesses", self._timeout):
            pipe = self._client.pipeline(transaction=False)
            pipe.hset(name, counter, dumps(dict(counts)))
            pipe.pexpire(name, self._ttl_ms)
            await pipe.execute()

    async def split(self, room_id: str, key: str) -> dict[str, int]:
        async with guarded("guesses", self._timeout):
            values = await self._client.hvals(self._layout.guesses(room_id, key))
        total: Counter[str] = Counter()
        for value in values:
            total.update(_tally(text(value)))
        return dict(total)


def _tally(found: str) -> dict[str, int]:
    """A worker's tally as stored; an entry that is not one counts nothing."""
    try:
        counts = loads(found)
    except ValueError:
        return {}
    if not isinstance(counts, dict):
        return {}
    return {
        cell: count
        for cell, count in counts.items()
        if isinstance(count, int) and not isinstance(count, bool) and count > 0
    }
