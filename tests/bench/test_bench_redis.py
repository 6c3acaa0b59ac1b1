"""Redis round trips per committed move, counted with MONITOR, and the Redis bench.

Per move the service commits the room it holds in its cache (rooms.cache), brought
forward by the bus, with ONE round trip: ``EVALSHA`` of the commit script, which also
appends to the log, sets the TTLs and, when another process holds listeners of the room,
publishes the event with the room inside Redis.
(Before the cache it also loaded the room first, ``HMGET``: two round trips.) A stale copy
costs one more, counted in tests/rooms/test_cache.py. Joins and departures are left
out of the count (the probe brackets the moves alone).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from bench.load import CONFIGS, BenchOptions, LoadPlan, launch, make_scripts, run_bench, run_load
from bench.load.redis_probe import probe_game
from bench.load.report import table

pytestmark = pytest.mark.redis


@pytest.mark.parametrize("config", ["redis", "redis2"])
def test_round_trips_and_encodes_per_committed_move(redis_url: str, config: str) -> None:
    launched = launch("server", CONFIGS[config], redis_url)
    try:
        script = make_scripts({}, 1, seed=5)[0]
        probe = probe_game(
            launched.url,
            redis_url,
            workers=CONFIGS[config].workers,
            rules={},
            script=script,
            spectators=4,
        )
    finally:
        launched.stop()
    moves = len(script)
    assert probe["moves"] == moves
    redis = probe["redis"]
    assert redis["by_command"] == {"evalsha": moves}  # no load: the copy is current
    assert redis["per_move"] == 1.0
    # Local first: the committing process serves its own listeners from the commit, and
    # the script publishes only while another process holds listeners of the room. One
    # worker never publishes; with two, the kernel spreads the six connections, so the
    # room publishes every move (spread) or none (all on one worker).
    published = redis["inside_scripts"].get("publish", 0)
    assert published == 0 if config == "redis" else published in (0, moves)
    assert redis["bus"] == {}  # receiving costs the bus connection no command
    assert probe["encodes"] == {"moved": moves, "move_ok": moves}


@pytest.mark.slow  # a load-shaped run: the slow tier (./run test --slow)
def test_the_bench_on_redis_with_two_workers(redis_url: str, tmp_path: Path) -> None:
    options = BenchOptions(
        configs=("redis2",),
        games=2,
        spectators=1,
        duration=1.5,
        warmup=0.5,
        procs=2,
        probe=False,
        redis_url=redis_url,
        quiet=True,
    )
    report = run_bench(options)
    server, relay = report["runs"]
    for run in (server, relay):
        assert run["moves"] > 0
        assert run["errors"]["total"] == 0
        assert run["latency_ms"]["spectator"]["count"] == run["latency_ms"]["opponent"]["count"]
        assert run["server"]["processes"] >= 3  # the supervisor and its two workers
    # Calls per move from INFO commandstats (inside scripts included): the relay publishes
    # once per move and stores nothing; the server loads and commits.
    assert relay["redis_calls_per_move"]["publish"] == pytest.approx(1.0, abs=0.2)
    assert not {"hmget", "evalsha", "hset"} & set(relay["redis_calls_per_move"])
    assert server["redis_calls_per_move"]["evalsha"] >= 1.0
    # Redis's own CPU per move beside the server's (INFO cpu over the same windows; the
    # kernel counts CPU time in ticks, so a short window may see none)
    for run in (server, relay):
        assert run["redis_cpu_us_per_move"] >= 0
    printed = table(report["runs"], report["comparisons"])
    assert f"{server['server']['cpu_us_per_move']:.0f} + " in printed


def test_the_relay_still_relays_after_idling_past_the_redis_socket_timeout(
    redis_url: str,
) -> None:
    from redis._defaults import DEFAULT_SOCKET_TIMEOUT

    launched = launch("relay", CONFIGS["redis"], redis_url)
    try:
        # The test: idle past redis-py's socket timeout, as while the server's window runs.
        time.sleep(DEFAULT_SOCKET_TIMEOUT + 1)
        plan = LoadPlan(launched.url, 2, 1, 0.0, 0.2, 1.0, {})
        result = run_load(plan)
    finally:
        launched.stop()
    assert result["moves"] > 0
    assert result["errors"] == {} and result["unfinished"] == 0


@pytest.mark.slow  # a load-shaped run: the slow tier (./run test --slow)
def test_rematch_mode_on_redis_with_two_workers(redis_url: str) -> None:
    """The two players of a room may be on two workers: the server commits both votes in
    Redis, the relay counts them there (INCR), and the next game is played in the room."""
    from tests.bench.test_bench_rematch import check_rematch_run

    options = BenchOptions(
        configs=("redis2",),
        games=2,
        spectators=2,
        next="rematch",
        duration=1.0,
        warmup=0.5,
        procs=2,
        probe=False,
        redis_url=redis_url,
        quiet=True,
    )
    server, relay = run_bench(options)["runs"]
    for run in (server, relay):
        check_rematch_run(run, games=2, spectators=2)
    assert relay["redis_calls_per_move"]["incrby"] > 0  # the votes
