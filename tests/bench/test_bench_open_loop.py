"""``tictactoe bench --open-loop RATE``: moves due on a clock whatever the server answers
(bench/load/schedule.py), and a report that says whether the server kept up."""

from __future__ import annotations

import asyncio
import math
from time import perf_counter

import pytest

from bench.load import BenchOptions, Recorder, run_bench
from bench.load.report import OpenLoop, open_loop_line, open_loop_record
from bench.load.schedule import Schedule


def test_a_lane_offers_its_rate_across_games() -> None:
    recorder = Recorder(100.5, 102.0)
    schedule = Schedule(2.0, recorder)
    lane = schedule.lane()
    lane.next_due = 100.0
    first = lane.begin(3)  # moves due at 100, 100.5, 101
    assert [first.due(ply) for ply in range(3)] == [100.0, 100.5, 101.0]
    first.sent = 3
    first.done()
    second = lane.begin(5)  # the next game's first move: one interval after the last
    assert second.begun == 101.5
    assert schedule.live == {second}
    # due in [100.5, 102): 101.5 only (102 is the window's end); none sent yet
    assert second.owed(recorder.start, recorder.end) == 1
    assert schedule.backlog() == 1
    second.sent = 1
    assert schedule.backlog() == 0


def test_a_move_waits_for_its_due_time_and_a_late_one_is_counted() -> None:
    async def scenario() -> tuple[float, Recorder]:
        now = perf_counter()
        recorder = Recorder(now - 10, now + 10)
        lane = Schedule(20.0, recorder).lane()  # every 50 ms
        clock = lane.begin(4)
        await clock.wait(0)  # due now
        await clock.wait(1)  # due 50 ms after the start: waited for
        waited = perf_counter() - clock.begun
        await asyncio.sleep(0.2)  # the turn comes late: moves 2 and 3 were due at 100, 150
        await clock.wait(2)
        return waited, recorder

    waited, recorder = asyncio.run(scenario())
    assert waited >= 0.05
    assert recorder.due == 3
    assert recorder.late[2] >= 0.1  # 200 ms of play later, due at 100 ms


def test_the_verdict_names_what_fell_behind() -> None:
    result = {"due": 90, "backlog": 10, "late": [0.001] * 89 + [0.5]}
    kept = open_loop_record(
        {"due": 100, "backlog": 0, "late": [0.001] * 100}, 10.0, OpenLoop(10, 1.0), 10.0
    )
    assert kept["behind"] == [] and kept["offered_per_s"] == 10 and kept["due_per_s"] == 10
    behind = open_loop_record(result, 10.0, OpenLoop(10, 1.0), 8.0)
    assert behind["behind"] == [
        "achieved 80% of the moves due",
        "p99 move sent 500 ms after its due time",
        "10 moves due and unsent at the window's end",
    ]
    run = {
        "config": "redis2",
        "target": "server",
        "open_loop": behind,
        "generator": {"cpu_percent": 190.0, "procs": 2},
    }
    line = open_loop_line(run)
    assert line is not None
    assert line.startswith("redis2 server: open loop, 10 games × 1 moves/s = 10 offered")
    assert "did NOT keep up: achieved 80% of the moves due" in line
    assert line.endswith("(the load processes ran at 95 % CPU each: add --procs)")
    assert open_loop_line({**run, "open_loop": None}) is None


@pytest.mark.slow  # a load-shaped run: the slow tier (./run test --slow)
@pytest.mark.process
def test_the_bench_in_open_loop_offers_its_rate() -> None:
    options = BenchOptions(
        configs=("memory",),
        games=4,
        spectators=1,
        duration=2.0,
        warmup=0.5,
        baseline=False,
        probe=False,
        quiet=True,
        open_loop=4.0,
    )
    report = run_bench(options)
    (run,) = report["runs"]
    loop = run["open_loop"]
    assert loop["offered_per_s"] == 16
    # the moves that fell due in the window: 4 lanes × 4 a second, give or take the edges
    assert math.isclose(loop["due_per_s"], 16, abs_tol=4)
    assert run["moves"] > 0 and run["errors"]["total"] == 0
    assert loop["lag_ms"]["count"] > 0
    assert run["latency_ms"]["opponent"]["count"] > 0


@pytest.mark.slow  # a load-shaped run: the slow tier (./run test --slow)
@pytest.mark.process
def test_an_offer_the_server_cannot_meet_is_reported_as_not_kept_up() -> None:
    # 1,000 moves a second in each game: a move due every millisecond, which no round
    # trip through a server meets, so every move after the first goes out late
    options = BenchOptions(
        configs=("memory",),
        games=2,
        spectators=0,
        duration=1.0,
        warmup=0.3,
        baseline=False,
        probe=False,
        quiet=True,
        open_loop=1000.0,
    )
    (run,) = run_bench(options)["runs"]
    assert run["open_loop"]["behind"], run["open_loop"]
    line = open_loop_line(run)
    assert line is not None and "did NOT keep up" in line
