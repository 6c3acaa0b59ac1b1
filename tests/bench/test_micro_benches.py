"""The micro-benchmarks that need Redis run end to end on a tiny load against a private
redis-server and leave none of their keys behind (their figures are read by people, so a
broken one would go unnoticed otherwise)."""

from __future__ import annotations

import redis

from bench.bus_intake import measure as measure_intake
from bench.redis_calls import measure as measure_calls
from bench.room_lifecycle import STEPS, measure_lifecycle


def _keys(url: str) -> list[bytes]:
    client = redis.Redis.from_url(url)
    try:
        return list(client.scan_iter(count=1000))
    finally:
        client.close()


def test_the_room_lifecycle_bench_counts_each_step_and_cleans_up(redis_url: str) -> None:
    found = measure_lifecycle(redis_url, rounds=1, loops=2, games=2)
    assert found["µs CPU per game lifecycle (2 concurrent loops)"] > 0
    per_step = found["commands per step (store, presence, bus)"]
    assert list(per_step) == list(STEPS) and all(count >= 1 for count in per_step.values())
    assert not [key for key in _keys(redis_url) if key.startswith(b"bench-lifecycle-")]


def test_the_store_calls_bench_measures_each_call_and_cleans_up(redis_url: str) -> None:
    found = measure_calls(redis_url, rounds=1, loop="asyncio")
    assert set(found) == {"load", "events_since", "guard: guarded", "guard: calls.guard"}
    assert all(value > 0 for value in found.values())
    assert not [key for key in _keys(redis_url) if key.startswith(b"bench-calls-")]


def test_the_bus_intake_bench_measures_both_ways(redis_url: str) -> None:
    found = measure_intake(redis_url, rounds=1, loop="asyncio", messages=300)
    assert set(found) == {"wire", "plain"}
    for figures in found.values():
        assert figures["cpu_us_per_message"] > 0 and figures["messages_per_second"] > 0
    assert not [key for key in _keys(redis_url) if key.startswith(b"bench-intake-")]
