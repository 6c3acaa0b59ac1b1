"""A bounded transposition table: two slots a bucket, the bigger subtree kept, never cleared.

A key hashes to one bucket of two slots. The first slot keeps the entry with the most work
behind it (the most empty cells left when it was searched: the biggest subtree); the second
always takes the newest entry. A new entry worth at least the first slot's takes it and moves
the old one down to the second, so a long solve keeps its expensive results while the cheap
ones near the leaves come and go. Memory is bounded by ``2 * buckets`` entries.

The slots live in a dict keyed by slot number, filled as the search goes: a short search
pays for the entries it stores, not for a table of the full size up front.
"""

from __future__ import annotations

from typing import Any, Protocol

__all__ = ["DEFAULT_BUCKETS", "EntryTable", "LARGE_BUCKETS", "TranspositionTable", "bucket_count"]

DEFAULT_BUCKETS = 1 << 17  # up to 2**18 entries: about 50 MB when full (a bot, an analysis)
LARGE_BUCKETS = 1 << 19  # up to 2**20 entries: about 200 MB when full (a long solve)


class EntryTable(Protocol):
    """What the solver reads of its value table, pure (below) or compiled (core/ai/_search.c)."""

    def get(self, key: int) -> Any:
        """The entry stored for ``key``, or None."""

    def __len__(self) -> int: ...


class TranspositionTable:
    """``get(key)`` / ``put(key, work, entry)`` with a bounded number of entries."""

    __slots__ = ("_buckets", "_slots", "hits", "stores")

    def __init__(self, buckets: int = DEFAULT_BUCKETS) -> None:
        self._buckets = bucket_count(buckets)
        self._slots: dict[int, tuple[int, int, Any]] = {}  # slot -> (key, work, entry)
        self.hits = 0
        self.stores = 0

    def __len__(self) -> int:
        return len(self._slots)

    @property
    def capacity(self) -> int:
        return 2 * self._buckets

    def get(self, key: int) -> Any:
        """The entry stored for ``key``, or None."""
        slot = (key % self._buckets) << 1
        slots = self._slots
        found = slots.get(slot)
        if found is not None and found[0] == key:
            self.hits += 1
            return found[2]
        found = slots.get(slot + 1)
        if found is not None and found[0] == key:
            self.hits += 1
            return found[2]
        return None

    def put(self, key: int, work: int, entry: Any) -> None:
        """Store ``entry`` for ``key``; ``work`` measures the subtree behind it."""
        self.stores += 1
        slot = (key % self._buckets) << 1
        slots = self._slots
        deep = slots.get(slot)
        if deep is None or deep[0] == key or work >= deep[1]:
            if deep is not None and deep[0] != key:
                # the old deep entry becomes the recent one (over any older entry for key)
                slots[slot + 1] = deep
            slots[slot] = (key, work, entry)
        else:
            slots[slot + 1] = (key, work, entry)


def bucket_count(buckets: int) -> int:
    """The buckets a table asked for ``buckets`` has: keys are bit patterns, a prime mixes
    them (the compiled table, core/ai/_search.c, takes the same count)."""
    if buckets < 1:
        raise ValueError(f"a table needs at least one bucket, got {buckets}")
    return _prime_at_least(buckets)


def _prime_at_least(n: int) -> int:
    candidate = max(2, n)
    while any(candidate % d == 0 for d in range(2, int(candidate**0.5) + 1)):
        candidate += 1
    return candidate
