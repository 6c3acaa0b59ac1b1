"""The counts taken at every move, kept in plain numbers and handed to prometheus_client in
batches: once a second, before this worker answers a scrape, and when it stops.

A prometheus_client increment takes a lock and, with several workers, writes a memory-mapped
file: about 1.1 µs in one process and 3.3 µs with two workers, three times per move (a
message counted, a commit and a Redis round trip observed). Here a move's counts cost a few
additions; ``flush`` then makes one increment per bucket that changed. A scrape sees this
worker's counts to the moment and another worker's as of its last flush, at most
``FLUSH_EVERY`` seconds old: nothing is lost, only counted up to a second later.

prometheus_client has no public call that adds many observations to a histogram at once, so
``BufferedHistogram.flush`` adds to the histogram child's bucket and sum values
(``_buckets``, ``_sum``), as its own ``observe`` does; ``tests/server/metrics/test_buffered.py``
checks that the exposition is the one ``observe`` would give, so a change of those internals
fails the tests, not the figures.
"""

from __future__ import annotations

import asyncio
from bisect import bisect_left
from typing import Any

from rooms.common.tasks import cancel_all

from .process import SAMPLE_EVERY, sample_process

__all__ = ["FLUSH_EVERY", "BufferedCounter", "BufferedHistogram", "Flusher", "flush_all"]

FLUSH_EVERY = 1.0
"""Seconds between flushes (a scrape comes every 15 s or so: no rate moves by a second)."""

_BUFFERS: list[BufferedCounter | BufferedHistogram] = []


class BufferedCounter:
    """``inc`` of a counter (or counter child) that reaches it at the next flush."""

    __slots__ = ("_child", "_pending")

    def __init__(self, child: Any) -> None:
        self._child = child
        self._pending = 0.0
        _BUFFERS.append(self)

    def inc(self, amount: float = 1.0) -> None:
        self._pending += amount

    def flush(self) -> None:
        pending, self._pending = self._pending, 0.0
        if pending:
            self._child.inc(pending)


class BufferedHistogram:
    """``observe`` of a histogram (or histogram child) that reaches it at the next flush."""

    __slots__ = ("_bounds", "_child", "_counts", "_sum")

    def __init__(self, child: Any, buckets: tuple[float, ...]) -> None:
        self._child = child
        self._bounds = buckets[:-1] if buckets and buckets[-1] == float("inf") else buckets
        """The upper bounds, +Inf left out (a value past the last goes to +Inf's slot)."""
        self._counts = [0] * (len(self._bounds) + 1)
        self._sum = 0.0
        _BUFFERS.append(self)

    def observe(self, amount: float) -> None:
        # bisect_left: the first bound >= amount, the bucket prometheus_client picks
        self._counts[bisect_left(self._bounds, amount)] += 1
        self._sum += amount

    def flush(self) -> None:
        counts, total = self._counts, self._sum
        if not any(counts):
            return
        self._counts = [0] * len(counts)
        self._sum = 0.0
        child = self._child
        child._sum.inc(total)
        for bucket, count in zip(child._buckets, counts, strict=True):
            if count:
                bucket.inc(count)


def flush_all() -> None:
    """Hand every buffered count to prometheus_client (on the event loop's thread: the
    counts are plain numbers, not guarded against another thread)."""
    for buffer in _BUFFERS:
        buffer.flush()


class Flusher:
    """The worker's task that flushes every ``FLUSH_EVERY`` seconds, and once more when it
    stops; it also samples the worker's process figures (server.metrics.process) when it
    starts and every ``SAMPLE_EVERY`` seconds."""

    def __init__(self) -> None:
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            sample_process()
            self._task = asyncio.create_task(self._run(), name="metrics-flush")

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            await cancel_all([task])
        flush_all()

    async def _run(self) -> None:
        since_sample = 0.0
        while True:
            await asyncio.sleep(FLUSH_EVERY)
            flush_all()
            since_sample += FLUSH_EVERY
            if since_sample >= SAMPLE_EVERY:
                sample_process()
                since_sample = 0.0
