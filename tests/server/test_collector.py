"""The worker's garbage collector schedule (server.collector): the young generations on the
loop's clock, everything only once the heap has grown, CPython's own rules back on close."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from server.collector import Collector


@pytest.fixture(autouse=True)
def _collector_left_as_found() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()  # start() froze this test process's heap
    gc.set_threshold(*thresholds)


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


async def _until(condition: object, seconds: float = 5.0) -> None:
    for _ in range(int(seconds / 0.01)):
        if callable(condition) and condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("not in time")


async def test_the_ticks_collect_the_young_generations() -> None:
    # CPython's own young collections out of the way
    collector = Collector(young_every=0.02, check_every=60, young_threshold=1 << 30)
    collector.start()
    try:
        assert gc.get_threshold()[0] == 1 << 30 and gc.get_threshold()[2] > 10**6
        node = Node()
        gone = weakref.ref(node)
        del node
        assert gone() is not None  # nobody collected yet
        await _until(lambda: gone() is None)
        assert collector.young >= 1 and collector.full == 0
    finally:
        collector.close()


async def test_everything_is_collected_once_the_heap_has_grown_and_only_then() -> None:
    collector = Collector(young_every=60, check_every=0.02, growth=1.25, min_growth=1_000)
    collector.start()
    try:
        await asyncio.sleep(0.15)  # a few looks at a heap that did not grow
        assert collector.full == 0 and collector.last_full_ms is None
        before = collector.stats()["blocks_after_full"]
        grown = [[index] for index in range(before)]  # about as many blocks again
        await _until(lambda: collector.full == 1)
        stats = collector.stats()
        assert stats["full_on_growth"] == 1 and stats["last_full_ms"] >= 0
        assert stats["blocks_after_full"] > before  # the new base: what the heap now holds
        await asyncio.sleep(0.15)
        assert collector.full == 1  # no growth since: no second walk
        del grown
    finally:
        collector.close()


async def test_close_gives_cpython_its_rules_back_and_stops_the_ticks() -> None:
    gc.set_threshold(700, 10, 10)
    collector = Collector(young_every=0.01, check_every=0.01, young_threshold=5_000)
    collector.start()
    assert gc.get_threshold() == (5_000, 10, 1 << 30)  # bursts only; no full on counts
    await _until(lambda: collector.young >= 2)
    collector.close()
    assert gc.get_threshold() == (700, 10, 10)
    ticks = collector.young
    await asyncio.sleep(0.05)
    assert collector.young == ticks


@pytest.mark.parametrize("options", [
    {"young_every": 0}, {"check_every": -1}, {"growth": 1.0}, {"min_growth": -5},
    {"young_threshold": 0},
])
def test_bad_settings_are_refused(options: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="intervals must be above 0"):
        Collector(**options)  # type: ignore[arg-type]
