"""The garbage collector tuned for a long-running worker (``Settings.tune_gc``).

A worker makes almost no cyclic garbage as it plays (closed connections and replaced room
states are freed by reference counting), yet CPython's collector walks its young objects
hundreds of times a second and its whole heap every few seconds, each time with the event
loop stopped. ``Collector`` takes over the schedule:

- ``gc.freeze()`` once the worker has started: the startup heap (modules, classes,
  functions) is never walked again by a collection.
- Every ``YOUNG_EVERY`` seconds the young generations are *frozen* (spliced onto the
  permanent generation: no walk, whatever their size) instead of collected; CPython's own
  young collections run between two ticks only in a burst of allocations (threshold
  ``YOUNG_THRESHOLD``).
- Everything is collected only once the heap has grown by ``GROWTH`` (and at least
  ``MIN_GROWTH`` blocks) since the last full collection, as measured by
  ``sys.getallocatedblocks`` every ``CHECK_EVERY`` seconds (no walk): a heap of steady size
  is never walked whole, one that grows is, once per doubling (Go's default rule).

Process-wide: one per worker process; ``close`` gives CPython its own schedule back. Each
freeze and full collection is reported as a pause (server.metrics).
"""

from __future__ import annotations

import asyncio
import gc
import sys
import time
from typing import Any

from ..metrics import edge as metrics

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
        started = time.perf_counter()
        gc.freeze()  # no walk: the young generations' lists spliced onto the permanent one
        metrics.collector_pause("freeze", time.perf_counter() - started)
        self.young += 1
        self._handles[0] = loop.call_later(self._young_every, self._tick, loop)

    def _check(self, loop: asyncio.AbstractEventLoop) -> None:
        blocks = sys.getallocatedblocks()
        if blocks > max(self._base * self._growth, self._base + self._min_growth):
            started, paused = time.process_time(), time.perf_counter()
            gc.unfreeze()  # everything, the ticks' frozen objects and startup's included
            gc.collect()
            gc.freeze()
            metrics.collector_pause("full", time.perf_counter() - paused)
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
