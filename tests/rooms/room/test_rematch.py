"""Rematch in the sans-I/O room: votes, colours rotated, series score, archived games."""

from __future__ import annotations

from core import Rules
from rooms import ErrorCode, Role, Status
from rooms.protocol import decode_room, encode_room
from rooms.room import Join, Room
from rooms.room.commands import Abort, Rematch, Resign
from rooms.room.config import TimeControl
from rooms.room.events import NewGame, RematchOffered
from tests.rooms.room.lifecycle_helpers import T0, at, play, refused_at, room_with
from tests.support.handled import event_of


def x_wins(room: Room, t: float) -> float:
    """The seat holding X wins on the top row; returns the time after the game."""
    xs, os = [s for s in room.seats if s.mark == "X"], [s for s in room.seats if s.mark == "O"]
    x, o = xs[0].connections[0], os[0].connections[0]
    for i, (conn, row, col) in enumerate([(x, 0, 0), (o, 1, 0), (x, 0, 1), (o, 1, 1), (x, 0, 2)]):
        play(room, conn, row, col, t + i)
    return t + 5


def test_rematch_is_refused_mid_game_and_twice() -> None:
    room, _ = room_with()
    assert refused_at(room, Rematch("c0"), T0).code is ErrorCode.NOT_FINISHED
    x_wins(room, T0)
    room.handle(Join("s", Role.SPECTATOR), T0 + 10)
    assert refused_at(room, Rematch("s"), T0 + 10).code is ErrorCode.NOT_A_PLAYER
    event = event_of(at(room, Rematch("c1"), T0 + 10), RematchOffered)
    assert event.by == "O" and event.offers["rematch"] == ["O"]
    assert refused_at(room, Rematch("c1"), T0 + 11).code is ErrorCode.OFFER_PENDING


def test_rematch_swaps_colours_keeps_the_score_and_the_spectators() -> None:
    room, tokens = room_with()
    room.handle(Join("s", Role.SPECTATOR), T0)
    t = x_wins(room, T0)  # P0 (X) wins game 1
    at(room, Rematch("c0"), t)
    event = event_of(at(room, Rematch("c1"), t + 1), NewGame)
    assert event.marks == {"X": "O", "O": "X"} and event.game_number == 2
    assert [(p["mark"], p["name"], p["wins"]) for p in event.players] == [
        ("X", "P1", 0),
        ("O", "P0", 1),
    ]
    assert event.board == ".../.../..." and event.turn == "X"
    assert event.status == "playing" and event.offers["rematch"] == []
    assert room.status is Status.PLAYING and room.spectators == ["s"]
    assert room.seated("c1").mark == "X"
    # the old tokens still hold the seats, now with the new marks
    room.handle(Join("c0b", Role.PLAYER, token=tokens[0]), t + 2)
    assert room.seated("c0b").mark == "O"
    t = x_wins(room, t + 3)  # P1 (now X) wins game 2
    at(room, Rematch("c0"), t)
    at(room, Rematch("c1"), t)
    t = x_wins(room, t + 1)  # P0 (X again) wins game 3
    scores = {p["name"]: (p["wins"], p["draws"]) for p in room.players()}
    assert scores == {"P0": (2, 0), "P1": (1, 0)}
    snapshot = room.snapshot(t)
    assert snapshot["game_number"] == 3 and [g["game_number"] for g in snapshot["games"]] == [1, 2]
    first = snapshot["games"][0]
    assert first["players"] == [{"mark": "X", "name": "P0"}, {"mark": "O", "name": "P1"}]
    assert first["outcome"]["winner"] == "X" and len(first["moves"]) == 5
    assert [m["at"] for m in first["moves"]] == [T0, T0 + 1, T0 + 2, T0 + 3, T0 + 4]


def test_move_ids_start_afresh_and_old_moves_are_stale_in_the_new_game() -> None:
    room, _ = room_with()
    t = x_wins(room, T0)
    version_before = room.version
    at(room, Rematch("c0"), t)
    at(room, Rematch("c1"), t)
    assert room.game_version == room.version > version_before
    assert all(not seat.moves for seat in room.seats)


def test_clocks_reset_for_the_new_game() -> None:
    room, _ = room_with(time_control=TimeControl(initial=30.0, increment=1.0, first_move=5.0))
    play(room, "c0", 1, 1, T0 + 1)
    play(room, "c1", 0, 0, T0 + 2)
    play(room, "c0", 0, 1, T0 + 12)
    at(room, Resign("c1"), T0 + 13)
    at(room, Rematch("c0"), T0 + 14)
    clock = event_of(at(room, Rematch("c1"), T0 + 14), NewGame).clock
    assert clock is not None and clock["remaining"] == {"X": 30.0, "O": 30.0}
    assert clock["deadline"] == T0 + 19


def test_a_bot_votes_yes_at_once_and_then_moves_first() -> None:
    room, _ = room_with(bot=("random", "O"))
    at(room, Resign("c0"), T0 + 1)
    event_of(at(room, Rematch("c0"), T0 + 2), NewGame)
    bot = room.bot_to_move()
    assert bot is not None and bot.mark == "X"
    assert room.due() == T0 + 2 + room.settings.bot_budget + room.settings.bot_grace


def test_a_room_that_never_started_has_no_rematch() -> None:
    room, _ = room_with(players=1)
    at(room, Abort("c0"), T0)
    assert refused_at(room, Rematch("c0"), T0).code is ErrorCode.NOT_STARTED


def test_three_players_rotate_marks() -> None:
    room, _ = room_with(Rules(rows=4, cols=4, k=3, players=3))
    at(room, Abort("c0"), T0)
    for conn in ("c0", "c1", "c2"):
        last = at(room, Rematch(conn), T0 + 1)
    assert event_of(last, NewGame).marks == {"X": "A", "O": "X", "A": "O"}
    assert [p["name"] for p in room.players()] == ["P1", "P2", "P0"]


def test_the_whole_lifecycle_state_round_trips_through_the_codec() -> None:
    room, _ = room_with(time_control=TimeControl(initial=30.0, increment=1.0))
    t = x_wins(room, T0 + 1)
    at(room, Rematch("c0"), t)
    at(room, Rematch("c1"), t)
    play(room, "c1", 1, 1, t + 1)
    text = encode_room(room)
    again = decode_room(text)
    assert encode_room(again) == text
    assert again.snapshot(t + 2) == room.snapshot(t + 2)
