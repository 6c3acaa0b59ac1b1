"""How long the bridge lets an engine think (cli.bridge.timing, docs/engine-protocol.md)."""

from __future__ import annotations

from typing import Any

from cli.bridge.protocol import ClockTimes
from cli.bridge.timing import MIN_MOVETIME, clock_times, movetime_for


def room_clock(x: float, o: float, increment: float = 0.0, first_move: float = 30.0) -> Any:
    return {"initial": 60.0, "increment": increment, "first_move": first_move,
            "remaining": {"X": x, "O": o}, "running": "X", "deadline": None}  # fmt: skip


def test_without_a_clock_the_engine_gets_the_bridges_move_time() -> None:
    assert movetime_for(1.5, None, "X", first_move=False) == 1.5
    assert clock_times(None) is None


def test_a_long_clock_leaves_the_cap_and_a_short_one_a_share_of_what_is_left() -> None:
    assert movetime_for(1.0, room_clock(60, 60), "X", first_move=False) == 1.0
    assert movetime_for(1.0, room_clock(10, 60), "X", first_move=False) == 10 / 20
    assert movetime_for(1.0, room_clock(10, 60, increment=0.4), "X", first_move=False) == 0.7
    assert movetime_for(1.0, room_clock(0.2, 60), "X", first_move=False) == MIN_MOVETIME


def test_the_first_move_limit_counts_as_the_time_left_on_a_first_move() -> None:
    clock = room_clock(600, 600, first_move=4.0)
    assert movetime_for(5.0, clock, "O", first_move=True) == 4.0 / 20
    assert movetime_for(5.0, clock, "O", first_move=False) == 5.0


def test_the_engine_is_told_every_marks_time_and_the_increment() -> None:
    assert clock_times(room_clock(12.5, 30, increment=2)) == ClockTimes({"X": 12.5, "O": 30.0}, 2.0)
