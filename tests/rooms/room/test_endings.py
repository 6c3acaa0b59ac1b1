"""Resign, abort, abandonment claims and timer ticks in the sans-I/O room."""

from __future__ import annotations

import pytest

from core import Rules
from rooms import ErrorCode, Role, Status
from rooms.room import Done, Join, Leave
from rooms.room.commands import Abort, Claim, Resign, Tick
from rooms.room.config import RoomSettings
from rooms.room.events import GameOver, Presence
from tests.rooms.room.lifecycle_helpers import T0, at, play, refused_at, room_with
from tests.support.handled import event_of


def test_resign_ends_the_game_for_the_opponent_and_counts_in_the_series() -> None:
    room, _ = room_with()
    play(room, "c0", 1, 1, T0 + 1)
    handled = at(room, Resign("c1"), T0 + 2)
    event = event_of(handled, GameOver)
    assert event.by == "O"
    assert event.outcome == {"reason": "resignation", "winner": "X", "loser": "O", "line": []}
    assert event.status == "finished" and event.turn is None
    assert [(p["mark"], p["wins"], p["draws"]) for p in event.players] == [
        ("X", 1, 0),
        ("O", 0, 0),
    ]
    assert room.status is Status.FINISHED and room.ended_at == T0 + 2
    assert handled.reply == Done(room.version)


def test_resign_at_the_wrong_moment_is_refused() -> None:
    room, _ = room_with(players=1)
    assert refused_at(room, Resign("c0"), T0).code is ErrorCode.NOT_STARTED
    room.handle(Join("c1", Role.PLAYER), T0)
    room.handle(Join("s", Role.SPECTATOR), T0)
    assert refused_at(room, Resign("s"), T0).code is ErrorCode.NOT_A_PLAYER
    assert refused_at(room, Resign("nobody"), T0).code is ErrorCode.NOT_JOINED
    at(room, Resign("c0"), T0 + 1)
    assert refused_at(room, Resign("c1"), T0 + 2).code is ErrorCode.GAME_OVER


def test_abort_before_both_moved_has_no_result_and_no_score() -> None:
    room, _ = room_with()
    play(room, "c0", 0, 0, T0 + 1)
    event = event_of(at(room, Abort("c1"), T0 + 2), GameOver)
    assert event.outcome["reason"] == "aborted"
    assert event.outcome["winner"] is None and event.outcome["loser"] is None
    assert all(p["wins"] == 0 and p["draws"] == 0 for p in event.players)


def test_abort_in_a_waiting_room_is_allowed() -> None:
    room, _ = room_with(players=1)
    assert event_of(at(room, Abort("c0"), T0 + 1), GameOver).outcome["reason"] == "aborted"
    assert room.status is Status.FINISHED


def test_abort_after_both_moved_is_refused_and_after_the_end_too() -> None:
    room, _ = room_with()
    play(room, "c0", 0, 0, T0 + 1)
    play(room, "c1", 1, 1, T0 + 2)
    assert refused_at(room, Abort("c0"), T0 + 3).code is ErrorCode.CANNOT_ABORT
    at(room, Resign("c0"), T0 + 4)
    assert refused_at(room, Abort("c1"), T0 + 5).code is ErrorCode.GAME_OVER


def test_abandonment_is_claimable_only_after_the_grace_period() -> None:
    room, _ = room_with(settings=RoomSettings(abandon_grace=30.0, leave_grace=5.0))
    play(room, "c0", 1, 1, T0 + 1)
    assert refused_at(room, Claim("c0"), T0 + 2).code is ErrorCode.NOT_CLAIMABLE
    event = event_of(at(room, Leave("c1"), T0 + 10), Presence)
    assert event.claimable_at == T0 + 40 and not event.connected
    error = refused_at(room, Claim("c0"), T0 + 20)
    assert error.code is ErrorCode.NOT_CLAIMABLE and error.retry_after == pytest.approx(20.0)
    # nothing is forfeited while waiting: the game is still on
    assert room.status is Status.PLAYING
    end = event_of(at(room, Claim("c0"), T0 + 40), GameOver)
    assert end.outcome["reason"] == "abandonment"
    assert end.outcome["winner"] == "X" and end.outcome["loser"] == "O"
    assert end.by == "X"


def test_a_deliberate_leave_shortens_the_grace_and_a_draw_can_be_claimed() -> None:
    room, _ = room_with(settings=RoomSettings(abandon_grace=30.0, leave_grace=5.0))
    at(room, Leave("c1", deliberate=True), T0 + 1)
    assert room.players()[1]["left"] is True
    assert refused_at(room, Claim("c0", draw=True), T0 + 5.5).code is ErrorCode.NOT_CLAIMABLE
    event = event_of(at(room, Claim("c0", draw=True), T0 + 6), GameOver)
    assert event.outcome["reason"] == "abandonment" and event.outcome["winner"] is None
    assert [p["draws"] for p in event.players] == [1, 1]


def test_coming_back_clears_the_absence() -> None:
    room, tokens = room_with(settings=RoomSettings(abandon_grace=3.0))
    at(room, Leave("c1"), T0 + 1)
    at(room, Join("c1b", Role.PLAYER, token=tokens[1]), T0 + 2)
    assert room.players()[1]["away_since"] is None
    assert refused_at(room, Claim("c0"), T0 + 100).code is ErrorCode.NOT_CLAIMABLE


def test_claims_name_a_real_seat_and_never_the_claimer() -> None:
    room, _ = room_with(settings=RoomSettings(abandon_grace=1.0))
    at(room, Leave("c1"), T0)
    assert refused_at(room, Claim("c0", mark="Q"), T0 + 5).code is ErrorCode.BAD_MESSAGE
    assert refused_at(room, Claim("c0", mark="X"), T0 + 5).code is ErrorCode.NOT_CLAIMABLE
    assert at(room, Claim("c0", mark="O"), T0 + 5).event is not None


def test_three_player_abandonment_names_the_absent_loser() -> None:
    room, _ = room_with(
        Rules(rows=5, cols=5, k=3, players=3), settings=RoomSettings(abandon_grace=1.0)
    )
    at(room, Leave("c2"), T0)
    event = event_of(at(room, Claim("c0"), T0 + 2), GameOver)
    assert event.outcome["loser"] == "A" and event.outcome["winner"] is None


def test_a_tick_with_nothing_due_changes_nothing() -> None:
    room, _ = room_with()
    handled = room.handle(Tick(), T0 + 10_000)
    assert handled.event is None and handled.reply == Done(None)
    assert room.status is Status.PLAYING
