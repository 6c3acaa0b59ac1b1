"""The garbage collector tuned for a long-running worker (``Settings.tune_gc``).

Three changes, each measured under ``tictactoe bench`` (docs/performance.md):

- ``gc.freeze()`` once the worker has started: the tens of thousands of objects made by
  imports and startup (modules, classes, functions) are never garbage, yet every full
  collection walked them again. Frozen, they are skipped; they are still freed by reference
  counting if they ever become unreachable.
- **The young objects frozen on the loop's clock, never walked.** CPython collects the
  youngest generation when allocations outnumber deallocations by 700, and a deallocation
  of an *old* object counts as much as one of a young one. A worker replaces each room's
  state at every move: the new copy is young and lives until the next move, the old copy
  dies old. The two balance, so the count barely moves while young survivors pile up: at
  500 moves a second a young collection found 10,000–35,000 objects (~700 rooms' states)
  and held the event loop for 2–25 ms of CPU. Collecting the young generations every 50 ms
  on the loop instead (``gc.collect(1)``, items 21 and 30 of docs/performance.md) kept the
  pauses short, but each tick still walked the 3,000–9,500 objects the last 50 ms left
  alive, 6.5 % of a worker's CPU with a new room per game, and found nothing: the server
  makes no cyclic garbage as it plays (a closed connection is freed by reference counting,
  and so are the error paths: 20,000 refused commands, none). So every ``YOUNG_EVERY``
  seconds the tick *freezes* what is there (``gc.freeze()``: the young lists spliced onto
  the permanent generation, no walk, whatever their size), and only a full collection ever
  looks at those objects again; an object freed by reference counting leaves the frozen
  list as any other. CPython's own young collections run between two ticks only in a burst
  of allocations (its threshold raised from 700 to ``YOUNG_THRESHOLD``): at 700, with a
  new room per game, it collected the youngest generation about a hundred times a second.
- **Full collections when the heap has grown**, not after a count of younger ones: each
  walks every live object (hundreds of thousands at 1,500 connections, 100–200 ms of CPU
  with the event loop stopped). CPython's own rule (after 10 middle collections, once the
  objects promoted to the old generation reach a quarter of it) counts promotions, so at
  20 young ticks a second it would run one every few seconds, although the promoted room
  states die soon after. Instead, every ``CHECK_EVERY`` seconds the worker compares the
  interpreter's allocated memory blocks (``sys.getallocatedblocks``, no walk of the heap)
  with what the last full collection left, and collects everything once they have doubled
  (``GROWTH``, and at least ``MIN_GROWTH`` blocks more), as Go's collector does at its
  default: a heap that keeps its size, the steady state, is never walked whole; one that
  grows, with garbage in cycles or with more connections, is, once per doubling (the
  frozen objects thawed for it, startup's included, then frozen again). A quarter
  (CPython's proportion) was tried first: with a new room per game the heap breathes by
  more than that as connections come and go, and each breath cost a full collection
  (six in 30 s at 700 games × 1 move/s, the last 255 ms of CPU: the p99).
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time
from typing import Any

__all__ = ["CHECK_EVERY", "GROWTH", "MIN_GROWTH", "YOUNG_EVERY", "YOUNG_THRESHOLD", "Collector"]

YOUNG_EVERY = 0.05
"""Seconds between two freezes of the young generations."""
YOUNG_THRESHOLD = 10_000
"""CPython's own threshold for the youngest generation while the ticks run (its default: 700)."""
CHECK_EVERY = 1.0
"""Seconds between two looks at the heap's growth."""
GROWTH = 2.0
"""Heap growth (allocated blocks, against what the last full collection left) after which
everything is collected: a doubling, Go's default (``GOGC=100``)."""
MIN_GROWTH = 100_000
"""...and at least this many more blocks, so that a small heap is not walked every second."""
_NEVER = 1 << 30
"""CPython's full-collection threshold, in middle collections: out of the way."""


class Collector:
    """Freezes the young generations every ``young_every`` seconds and collects everything
    once the heap has grown by ``growth``, on the running loop (see the module); ``close``
    thaws what was frozen and gives CPython its own thresholds back. Process-wide: one per
    worker process."""

    def __init__(
        self,
        *,
        young_every: float = YOUNG_EVERY,
        check_every: float = CHECK_EVERY,
        growth: float = GROWTH,
        min_growth: int = MIN_GROWTH,
        young_threshold: int = YOUNG_THRESHOLD,
    ) -> None:
        if not (
            young_every > 0
            and check_every > 0
            and growth > 1
            and min_growth >= 0
            and young_threshold > 0
        ):
            raise ValueError(
                "the collector's intervals and young threshold must be above 0, its growth "
                "above 1 and its minimum growth 0 or more"
            )
        self._young_every = young_every
        self._young_threshold = young_threshold
        self._check_every = check_every
        self._growth = growth
        self._min_growth = min_growth
        self._thresholds = gc.get_threshold()
        self._handles: list[asyncio.TimerHandle] = []
        self._base = 0
        self.young = 0
        """Ticks, each a freeze of the young generations."""
        self.full = 0
        """Full collections made because the heap had grown."""
        self.last_full_ms: float | None = None
        """CPU of the last of them, in milliseconds."""

    def start(self) -> None:
        """Collect what startup left behind, freeze the rest, and take over the schedule."""
        gc.collect()
        gc.freeze()
        gc.set_threshold(self._young_threshold, self._thresholds[1], _NEVER)
        self._base = sys.getallocatedblocks()
        loop = asyncio.get_running_loop()
        self._handles = [
            loop.call_later(self._young_every, self._tick, loop),
            loop.call_later(self._check_every, self._check, loop),
        ]

    def close(self) -> None:
        for handle in self._handles:
            handle.cancel()
        self._handles = []
        gc.unfreeze()  # CPython's collections see everything again
        gc.set_threshold(*self._thresholds)

    def _tick(self, loop: asyncio.AbstractEventLoop) -> None:
        gc.freeze()  # no walk: the young generations' lists spliced onto the permanent one
        self.young += 1
        self._handles[0] = loop.call_later(self._young_every, self._tick, loop)

    def _check(self, loop: asyncio.AbstractEventLoop) -> None:
        blocks = sys.getallocatedblocks()
        if blocks > max(self._base * self._growth, self._base + self._min_growth):
            started = time.process_time()
            gc.unfreeze()  # everything, the ticks' frozen objects and startup's included
            gc.collect()
            gc.freeze()
            self.last_full_ms = (time.process_time() - started) * 1000
            self.full += 1
            self._base = sys.getallocatedblocks()
        self._handles[1] = loop.call_later(self._check_every, self._check, loop)

    def stats(self) -> dict[str, Any]:
        """What ``GET /api/stats`` shows of it (besides CPython's own counters)."""
        return {
            "young_every": self._young_every,
            "young_ticks": self.young,
            "full_on_growth": self.full,
            "last_full_ms": self.last_full_ms,
            "blocks": sys.getallocatedblocks(),
            "blocks_after_full": self._base,
        }
