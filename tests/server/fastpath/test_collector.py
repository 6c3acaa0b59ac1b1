"""The worker's garbage collector schedule (server.fastpath.collector): the young
generations frozen on the loop's clock (never walked), everything collected only once the
heap has grown, CPython's own rules back on close."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator

import pytest

from server.fastpath import Collector
from tests.support.waiting import eventually


@pytest.fixture(autouse=True)
def _collector_left_as_found() -> Iterator[None]:
    thresholds = gc.get_threshold()
    yield
    gc.unfreeze()  # start() froze this test process's heap
    gc.set_threshold(*thresholds)


class Node:
    def __init__(self) -> None:
        self.me = self  # a cycle: only the collector frees it


async def test_the_ticks_freeze_the_young_generations_without_walking_them() -> None:
    # CPython's own young collections out of the way
    collector = Collector(young_every=0.02, check_every=60, young_threshold=1 << 30)
    collector.start()
    try:
        assert gc.get_threshold()[0] == 1 << 30 and gc.get_threshold()[2] > 10**6
        node = Node()
        gone = weakref.ref(node)
        del node  # garbage now, in a cycle: only a walk can find it
        await eventually(lambda: collector.young >= 3, "three young ticks")
        assert gone() is not None  # the ticks froze it, never looked at it
        # (not compared with a count taken after the start: frozen objects that die by
        # their reference count leave the frozen set, and may outnumber the new ones)
        assert gc.get_freeze_count() > 0
        assert gc.get_count()[0] < 1_000  # the youngest generation emptied by each tick
        assert collector.full == 0
    finally:
        collector.close()
    assert gc.get_freeze_count() == 0  # thawed: CPython's own collections see it again
    gc.collect()
    assert gone() is None


async def test_everything_is_collected_once_the_heap_has_grown_and_only_then() -> None:
    collector = Collector(young_every=0.02, check_every=0.02, growth=1.25, min_growth=1_000)
    collector.start()
    try:
        node = Node()
        gone = weakref.ref(node)
        del node
        # Nothing happens (bounded): a few looks at a heap that did not grow; a few freezes.
        await asyncio.sleep(0.15)
        assert gone() is not None
        assert collector.full == 0 and collector.last_full_ms is None
        before = collector.stats()["blocks_after_full"]
        grown = [[index] for index in range(before)]  # about as many blocks again
        await eventually(lambda: collector.full == 1, "a full collection")
        stats = collector.stats()
        assert stats["full_on_growth"] == 1 and stats["last_full_ms"] >= 0
        assert stats["blocks_after_full"] > before  # the new base: what the heap now holds
        assert gone() is None  # the frozen cycle too
        assert gc.get_freeze_count() > 0  # and what is left frozen again
        await asyncio.sleep(0.15)  # nothing happens (bounded): a few more looks
        assert collector.full == 1  # no growth since: no second walk
        del grown
    finally:
        collector.close()


async def test_close_gives_cpython_its_rules_back_and_stops_the_ticks() -> None:
    gc.set_threshold(700, 10, 10)
    collector = Collector(young_every=0.01, check_every=0.01, young_threshold=5_000)
    collector.start()
    assert gc.get_threshold() == (5_000, 10, 1 << 30)  # bursts only; no full on counts
    await eventually(lambda: collector.young >= 2, "two young ticks")
    collector.close()
    assert gc.get_threshold() == (700, 10, 10) and gc.get_freeze_count() == 0
    ticks = collector.young
    await asyncio.sleep(0.05)  # nothing happens (bounded): five periods without a tick
    assert collector.young == ticks


@pytest.mark.parametrize(
    "options",
    [
        {"young_every": 0},
        {"check_every": -1},
        {"growth": 1.0},
        {"min_growth": -5},
        {"young_threshold": 0},
    ],
)
def test_bad_settings_are_refused(options: dict[str, float]) -> None:
    with pytest.raises(ValueError, match="must be above 0"):
        Collector(**options)  # type: ignore[arg-type]
