"""Days per move, in the sans-I/O room: the control's text form and checks, the clock that
goes back to the whole allowance after each move, a missed deadline ending the game as a flag
does, its own rating pool, and graces as long as a move's time."""

from __future__ import annotations

import pytest

from core import Rules
from rooms import ErrorCode, RoomError, Status
from rooms.protocol import decode_room, encode_room
from rooms.ratings import pool_of
from rooms.room import Leave
from rooms.room.commands import Claim, Tick
from rooms.room.config import DAY, RoomSettings, TimeControl
from rooms.room.events import GameOver
from tests.rooms.room.lifecycle_helpers import T0, at, play, room_with
from tests.support.handled import event_of

DAY_IN_TESTS = 10.0
"""A correspondence "day" of 10 s (the ``correspondence_day`` knob)."""


def test_days_per_move_read_from_the_api_body() -> None:
    control = TimeControl.from_dict({"days": 3})
    assert control == TimeControl(3 * DAY, 0.0, 3 * DAY, days=3)
    assert control.correspondence and control.describe() == "3d/move"
    assert control.to_dict() == {
        "initial": 3 * DAY,
        "increment": 0,
        "first_move": 3 * DAY,
        "days": 3,
    }
    scaled = TimeControl.from_dict({"days": 7}, day=DAY_IN_TESTS)
    assert scaled.initial == scaled.first_move == 70.0
    assert TimeControl(**scaled.to_dict()) == scaled  # the stored form reads back
    assert "days" not in TimeControl(60, 2).to_dict()  # a live clock's record is unchanged


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"days": 4}, "time_control.days"),
        ({"days": 0}, "time_control.days"),
        ({"days": True}, "time_control.days"),
        ({"days": "1"}, "time_control.days"),
        ({"days": 1, "initial": 60}, "time_control.initial"),
        ({"days": 1, "increment": 2}, "time_control.increment"),
        ({"initial": 2 * DAY}, "time_control.initial"),  # a live clock: one day at most
    ],
)
def test_bad_days_are_refused_naming_the_field(body: dict[str, object], field: str) -> None:
    with pytest.raises(RoomError) as info:
        TimeControl.from_dict(body)
    assert (info.value.code, info.value.field) == (ErrorCode.INVALID_OPTIONS, field)


def test_the_clock_goes_back_to_the_whole_allowance_after_each_move() -> None:
    control = TimeControl.per_move(1, day=DAY_IN_TESTS)
    room, _ = room_with(time_control=control)
    assert room.deadline() is not None and room.due() == T0 + 10  # X's first move: a day
    play(room, "c0", 1, 1, T0 + 9)
    assert room.due() == T0 + 19  # O got the turn at T0 + 9: a whole day from then
    play(room, "c1", 0, 0, T0 + 18)
    play(room, "c0", 0, 1, T0 + 27.5)  # X used 9.5 of its 10 s: back to 10 all the same
    assert room.clock is not None and room.clock.remaining == {"X": 10.0, "O": 10.0}
    assert room.due() == T0 + 37.5
    clone = decode_room(encode_room(room))  # as every worker reads it from the store
    assert clone.due() == T0 + 37.5 and clone.settings.time_control == control


def test_a_missed_deadline_ends_the_game_as_a_flag_does() -> None:
    room, _ = room_with(time_control=TimeControl.per_move(2, day=DAY_IN_TESTS))
    play(room, "c0", 1, 1, T0 + 1)
    play(room, "c1", 0, 0, T0 + 2)
    assert room.handle(Tick(), T0 + 21.9).event is None  # X has until T0 + 22
    event = event_of(at(room, Tick(), T0 + 22), GameOver)
    assert event.outcome["reason"] == "timeout" and event.outcome["winner"] == "O"
    assert room.status is Status.FINISHED and room.due() is None
    assert room.handle(Tick(), T0 + 23).event is None  # once: a second tick changes nothing


def test_a_correspondence_game_is_rated_in_its_own_pool() -> None:
    assert pool_of(Rules(), TimeControl.per_move(1)) == "classic.correspondence"
    assert pool_of(Rules(), TimeControl(60, 0)) == "classic.blitz"


def test_the_graces_are_a_move_s_time_not_seconds() -> None:
    settings = RoomSettings(abandon_grace=30, leave_grace=5)
    control = TimeControl.per_move(3, day=DAY_IN_TESTS)
    long = settings.with_time_control(control)
    assert (long.abandon_grace, long.leave_grace) == (30.0, 30.0)
    week = settings.with_time_control(TimeControl.per_move(7))
    assert week.abandon_grace == week.leave_grace == 7 * DAY
    assert RoomSettings.from_dict(week.to_dict()) == week
    live = settings.with_time_control(TimeControl(60, 0))
    assert (live.abandon_grace, live.leave_grace) == (30, 5)


def test_absence_is_never_claimable_only_the_deadline_ends_the_game() -> None:
    room, _ = room_with(time_control=TimeControl.per_move(1, day=DAY_IN_TESTS))
    play(room, "c0", 1, 1, T0 + 1)
    at(room, Leave("c1"), T0 + 2)  # O closed the tab: a correspondence player does
    assert [p["claimable_at"] for p in room.players()] == [None, None]
    for when in (T0 + 8, T0 + 100):  # past the grace: still not a reason to end it
        with pytest.raises(RoomError) as info:
            room.handle(Claim("c0"), when)
        assert info.value.code is ErrorCode.NOT_CLAIMABLE
        assert "deadline" in info.value.message
    assert room.status is Status.PLAYING
