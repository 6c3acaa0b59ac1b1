"""Buffered counts (server.metrics.buffered) reach prometheus_client exactly as direct ones
would: the same buckets, sum and count after a flush, nothing before it, nothing twice."""

from __future__ import annotations

import asyncio

import pytest
from hypothesis import given
from hypothesis import strategies as st
from prometheus_client import CollectorRegistry, Counter, Histogram

from server.metrics import buffered
from server.metrics.buffered import BufferedCounter, BufferedHistogram, Flusher, flush_all
from server.metrics.families import FAST_BUCKETS

_SECONDS = st.floats(min_value=0, max_value=5, allow_nan=False) | st.sampled_from(FAST_BUCKETS)


def _samples(registry: CollectorRegistry) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in registry.collect()
        for sample in family.samples
        if not sample.name.endswith("_created")
    }


def _pair(name: str) -> tuple[CollectorRegistry, Histogram, CollectorRegistry, Histogram]:
    direct, batched = CollectorRegistry(), CollectorRegistry()
    return (
        direct,
        Histogram(name, "direct", buckets=FAST_BUCKETS, registry=direct),
        batched,
        Histogram(name, "batched", buckets=FAST_BUCKETS, registry=batched),
    )


@given(st.lists(st.lists(_SECONDS, max_size=30), max_size=4))
def test_a_buffered_histogram_gives_what_observe_gives(batches: list[list[float]]) -> None:
    direct_registry, direct, batched_registry, batched = _pair("t_seconds")
    buffer = BufferedHistogram(batched, FAST_BUCKETS)
    for batch in batches:  # several flushes, each adding what came since the last
        for value in batch:
            direct.observe(value)
            buffer.observe(value)
        buffer.flush()
        # the same buckets and count; the sum adds the same values in another grouping
        assert _samples(batched_registry) == pytest.approx(_samples(direct_registry), rel=1e-12)
    buffered._BUFFERS.remove(buffer)


def test_nothing_reaches_prometheus_before_the_flush_and_nothing_twice() -> None:
    registry = CollectorRegistry()
    histogram = Histogram("h_seconds", "h", buckets=FAST_BUCKETS, registry=registry)
    counter = Counter("c", "c", ["type"], registry=registry)
    observed, counted = (
        BufferedHistogram(histogram, FAST_BUCKETS),
        BufferedCounter(counter.labels("move")),
    )
    observed.observe(0.0003)
    counted.inc()
    counted.inc(2)
    assert registry.get_sample_value("h_seconds_count") == 0
    assert registry.get_sample_value("c_total", {"type": "move"}) == 0
    flush_all()
    flush_all()  # nothing new: adds nothing
    assert registry.get_sample_value("h_seconds_count") == 1
    assert registry.get_sample_value("h_seconds_bucket", {"le": "0.0005"}) == 1
    assert registry.get_sample_value("h_seconds_bucket", {"le": "0.00025"}) == 0
    assert registry.get_sample_value("h_seconds_sum") == pytest.approx(0.0003)
    assert registry.get_sample_value("c_total", {"type": "move"}) == 3
    buffered._BUFFERS.remove(observed)
    buffered._BUFFERS.remove(counted)


async def test_the_flusher_flushes_every_period_and_when_it_stops(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(buffered, "FLUSH_EVERY", 0.01)
    registry = CollectorRegistry()
    counter = BufferedCounter(Counter("f", "f", registry=registry))
    flusher = Flusher()
    flusher.start()
    try:
        counter.inc()
        for _ in range(500):  # a bound against a hang, not a timing
            if registry.get_sample_value("f_total") == 1:
                break
            await asyncio.sleep(0.01)
        assert registry.get_sample_value("f_total") == 1
        counter.inc(4)
    finally:
        monkeypatch.setattr(buffered, "FLUSH_EVERY", 3600.0)  # only the close flushes now
        await flusher.close()
    assert registry.get_sample_value("f_total") == 5
    buffered._BUFFERS.remove(counter)
