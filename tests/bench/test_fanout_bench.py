"""The fan-out micro-benchmark (bench.fanout) runs end to end on a tiny crowd: a real
uvicorn, real sockets, each way of sending measured, and the bare write (its figures are
read by people, so a broken one would go unnoticed otherwise)."""

from __future__ import annotations

from bench.fanout import EVENT, measure


def test_the_fanout_bench_prices_each_way_of_sending_and_the_bare_write() -> None:
    found = measure(connections=20, events=5, rounds=1)
    assert found["connections"] == 20 and found["events"] == 5
    assert found["frame_bytes"] == len(EVENT)
    ways = found["us_cpu_per_frame"]
    assert set(ways) == {"asgi", "direct", "write"} and all(value > 0 for value in ways.values())
    assert found["asgi_over_direct"] > 0 and found["direct_over_write"] > 0
