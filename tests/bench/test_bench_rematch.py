"""Rematch mode and crowd mode end to end, on a real server and relay on real ports.

Rematch mode: the same players and spectators play game after game in one room (colours
rotating), so there are more games than rooms and no connection beyond the first ones.
Crowd mode: every room's spectators are spread over two load processes, and their arrival
times are joined with the owners' send times after the run. Counts only, no timing.
"""

from __future__ import annotations

import multiprocessing
from collections.abc import Iterator
from multiprocessing.connection import Connection
from time import perf_counter
from typing import Any

import pytest

from bench.load import CONFIGS, BenchOptions, LoadPlan, launch, run_bench, run_load
from bench.load.launch import Launched

GAMES, SPECTATORS = 2, 2


def check_rematch_run(run: dict[str, Any], *, games: int, spectators: int) -> None:
    assert run["errors"] == {"total": 0, "by_kind": {}}
    assert run["moves"] > 0 and run["games_unfinished"] == 0
    # the same connections all along: one room per game slot, never replaced
    assert run["connections"]["opened"] == games * (2 + spectators)
    assert run["games"] >= 2 * games  # several games in each room
    opponent, spectator = run["latency_ms"]["opponent"], run["latency_ms"]["spectator"]
    assert opponent["count"] == run["moves"]  # every move sent in the window was delivered
    assert spectator["count"] == spectators * opponent["count"]


def test_rematch_mode_plays_game_after_game_in_each_room() -> None:
    report = run_bench(
        BenchOptions(
            configs=("memory",),
            games=GAMES,
            spectators=SPECTATORS,
            next="rematch",
            think=0.0,
            duration=1.0,
            warmup=0.5,
            probe=False,
            quiet=True,
        )
    )
    server, relay = report["runs"]
    assert (server["target"], relay["target"]) == ("server", "relay")
    for run in (server, relay):
        check_rematch_run(run, games=GAMES, spectators=SPECTATORS)
    assert server["moved_encodes_per_move"] == 1.0
    assert report["options"]["next"] == "rematch"


@pytest.fixture(scope="module", params=["server", "relay"])
def target(request: pytest.FixtureRequest) -> Iterator[Launched]:
    launched = launch(request.param, CONFIGS["memory"], None)
    try:
        yield launched
    finally:
        launched.stop()


@pytest.mark.slow  # a load-shaped run: the slow tier (./run test --slow)
def test_a_crowd_is_spread_over_the_processes_and_joined_up(target: Launched) -> None:
    watchers = 5  # per room; as many processes as rooms, one of them owning none
    plan = LoadPlan(
        target.url,
        GAMES,
        watchers,
        0.05,
        0.3,
        1.2,
        {},
        procs=3,
        next="rematch",
        crowd_from=watchers,
    )
    assert plan.crowded
    result = run_load(plan)
    assert result["errors"] == {} and result["unfinished"] == 0
    assert result["procs"] == 3 and result["games"] >= 2 * GAMES
    crowd = result["crowd"]
    assert crowd["rooms"] == GAMES and crowd["watchers"] == GAMES * watchers
    assert crowd["missed"] == 0 and crowd["early"] == 0
    # each move sent in the window reached every spectator of its room, in some process
    assert len(result["opponent"]) == result["moves"] > 0
    assert crowd["expected"] == watchers * result["moves"]
    assert len(result["spectator"]) == crowd["expected"]
    assert min(result["spectator"]) > 0
    assert result["opened"] == GAMES * (2 + watchers)


@pytest.mark.slow  # a load-shaped run: the slow tier (./run test --slow)
def test_the_players_can_be_kept_apart_from_the_crowd(target: Launched) -> None:
    """With ``players_apart`` the first process plays every room and watches none: every
    delivery is still joined up, every spectator having joined in the other processes."""
    watchers = 4
    plan = LoadPlan(
        target.url,
        GAMES,
        watchers,
        0.05,
        0.3,
        1.2,
        {},
        procs=3,
        next="rematch",
        crowd_from=watchers,
        players_apart=True,
    )
    result = run_load(plan)
    assert result["errors"] == {} and result["unfinished"] == 0
    crowd = result["crowd"]
    assert crowd["rooms"] == GAMES and crowd["watchers"] == GAMES * watchers
    assert crowd["missed"] == 0 and crowd["early"] == 0
    assert len(result["opponent"]) == result["moves"] > 0
    assert len(result["spectator"]) == crowd["expected"] == watchers * result["moves"]


@pytest.mark.slow  # a load-shaped run: the slow tier (./run test --slow)
def test_the_players_can_think_before_asking_for_the_rematch(target: Launched) -> None:
    """With ``rematch_think`` each player waits before its vote: a room starts a game at
    most once per shortest wait (half the mean, the default spread), where instant votes
    play a game every few milliseconds. (A slower machine plays fewer games, never more.)"""
    window, think = 1.5, 0.2
    plan = LoadPlan(target.url, GAMES, 0, 0.0, 0.0, window, {}, next="rematch", rematch_think=think)
    assert (
        plan.game_timeout
        > LoadPlan(target.url, GAMES, 0, 0.0, 0.0, window, {}, next="rematch").game_timeout
    )
    result = run_load(plan)
    assert result["errors"] == {} and result["unfinished"] == 0
    shortest = think * (1 - plan.think_spread)
    assert GAMES <= result["games"] <= GAMES * (window / shortest + 2)
    at_once = run_load(LoadPlan(target.url, GAMES, 0, 0.0, 0.0, window, {}, next="rematch"))
    assert at_once["errors"] == {} and at_once["games"] > result["games"]


def _reader(pipe: Connection) -> None:
    for _ in range(50):
        pipe.recv()
        pipe.send(perf_counter())


def test_two_processes_read_one_clock() -> None:
    """perf_counter in two processes is one clock (CLOCK_MONOTONIC on Linux): a reading
    taken in the other process between two of ours falls between them."""
    context = multiprocessing.get_context("spawn")
    mine, theirs = context.Pipe()
    child = context.Process(target=_reader, args=(theirs,), daemon=True)
    child.start()
    try:
        for _ in range(50):
            before = perf_counter()
            mine.send(None)
            assert mine.poll(30)
            theirs_at = mine.recv()
            after = perf_counter()
            assert before <= theirs_at <= after
    finally:
        child.join(10)
