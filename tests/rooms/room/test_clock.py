"""Time controls in the sans-I/O room: first-move limits, running clocks, increments,
flags committed by ticks (stale ones harmless), late moves refused."""

from __future__ import annotations

import pytest

from core import MoveRequest
from rooms import ErrorCode, RoomError, Status
from rooms.room import PlayMove
from rooms.room.commands import Claim, Resign, Tick
from rooms.room.config import TimeControl
from rooms.room.events import GameOver, Moved
from tests.rooms.room.lifecycle_helpers import T0, at, play, refused_at, room_with
from tests.support.handled import event_of

TC = TimeControl(initial=60.0, increment=2.0, first_move=10.0)


def test_no_clock_without_a_time_control() -> None:
    room, _ = room_with()
    snapshot = room.snapshot(T0)
    assert snapshot["clock"] is None and snapshot["due"] is None


def test_the_first_moves_have_their_own_limit_and_the_clocks_wait() -> None:
    room, _ = room_with(time_control=TC)
    clock = room.snapshot(T0 + 3)["clock"]
    assert clock["running"] is None and clock["deadline"] == T0 + 10
    assert clock["remaining"] == {"X": 60.0, "O": 60.0}
    assert room.due() == T0 + 10
    play(room, "c0", 1, 1, T0 + 4)  # X's first move: no clock charged, no increment
    clock = room.snapshot(T0 + 5)["clock"]
    assert clock["remaining"] == {"X": 60.0, "O": 60.0} and clock["deadline"] == T0 + 14


def test_a_first_move_that_never_comes_aborts_the_game() -> None:
    room, _ = room_with(time_control=TC)
    play(room, "c0", 1, 1, T0 + 1)
    assert room.handle(Tick(), T0 + 10.9).event is None  # stale: not due yet
    error = refused_at(room, PlayMove("c1", MoveRequest(0, 0), room.version, "late"), T0 + 11)
    assert error.code is ErrorCode.OUT_OF_TIME
    event = event_of(at(room, Tick(), T0 + 11), GameOver)
    assert event.outcome["reason"] == "aborted" and event.by is None
    assert all(p["wins"] == 0 and p["draws"] == 0 for p in event.players)


def test_clocks_run_for_the_mover_with_the_increment_after_each_move() -> None:
    room, _ = room_with(time_control=TC)
    play(room, "c0", 1, 1, T0 + 1)
    play(room, "c1", 0, 0, T0 + 2)
    clock = room.snapshot(T0 + 6)["clock"]
    assert clock["running"] == "X" and clock["deadline"] == T0 + 62
    assert clock["remaining"] == {"X": 56.0, "O": 60.0}
    event = event_of(play(room, "c0", 0, 1, T0 + 7), Moved)  # X spent 5 s, gains 2
    assert event.clock is not None and event.clock["remaining"] == {"X": 57.0, "O": 60.0}
    assert event.clock["running"] == "O" and event.due == T0 + 67


def test_the_flag_falls_by_tick_and_a_late_move_is_refused() -> None:
    room, _ = room_with(time_control=TimeControl(initial=5.0, increment=1.0, first_move=10.0))
    play(room, "c0", 1, 1, T0 + 1)
    play(room, "c1", 0, 0, T0 + 2)
    play(room, "c0", 0, 1, T0 + 3)  # X: 5 - 1 + 1 = 5
    play(room, "c1", 2, 2, T0 + 4)  # O: 5 - 1 + 1 = 5
    assert room.clock is not None and room.clock.remaining == {"X": 5.0, "O": 5.0}
    assert room.due() == T0 + 9
    late = PlayMove("c0", MoveRequest(2, 0), room.version, "late")
    assert refused_at(room, late, T0 + 9).code is ErrorCode.OUT_OF_TIME
    assert room.handle(Tick(), T0 + 8.99).event is None
    event = event_of(at(room, Tick(), T0 + 9.5), GameOver)
    assert event.outcome == {"reason": "timeout", "winner": "O", "loser": "X", "line": []}
    assert event.clock is not None
    assert event.clock["remaining"]["X"] == 0.0 and event.clock["running"] is None
    assert room.status is Status.FINISHED and room.due() is None
    assert room.handle(Tick(), T0 + 20).event is None  # a second worker's tick: harmless


def test_the_opponent_may_claim_a_fallen_flag() -> None:
    room, _ = room_with(time_control=TimeControl(initial=3.0, first_move=10.0))
    play(room, "c0", 1, 1, T0 + 1)
    play(room, "c1", 0, 0, T0 + 2)
    assert refused_at(room, Claim("c1"), T0 + 4).code is ErrorCode.NOT_CLAIMABLE
    event = event_of(at(room, Claim("c1"), T0 + 5), GameOver)
    assert event.outcome["reason"] == "timeout" and event.by == "O"


def test_resigning_stops_the_clock_with_the_time_spent() -> None:
    room, _ = room_with(time_control=TC)
    play(room, "c0", 1, 1, T0 + 1)
    play(room, "c1", 0, 0, T0 + 2)

    clock = event_of(at(room, Resign("c0"), T0 + 12), GameOver).clock
    assert clock is not None and clock["remaining"] == {"X": 50.0, "O": 60.0}
    assert room.snapshot(T0 + 100)["clock"]["remaining"] == {"X": 50.0, "O": 60.0}


@pytest.mark.parametrize(
    "bad",
    [
        {"initial": 0},
        {"initial": -1},
        {"initial": "60"},
        {"initial": 60, "increment": -1},
        {"initial": 60, "first_move": 0},
        {"increment": 2},
        {"initial": 60, "bonus": 1},
        {"initial": float("inf")},
        {"initial": 10**9},
    ],
)
def test_bad_time_controls_are_refused_with_the_field(bad: dict[str, object]) -> None:

    with pytest.raises(RoomError) as caught:
        TimeControl.from_dict(bad)
    assert caught.value.code is ErrorCode.INVALID_OPTIONS
    assert caught.value.field is not None and caught.value.field.startswith("time_control")
