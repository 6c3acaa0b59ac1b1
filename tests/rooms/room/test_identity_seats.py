"""Seats linked to a guest identity in the sans-I/O room: the verified ``player_id`` of a
seat-taking join (or a quick play's reservation) is recorded on the seat, shown to everyone,
stored, kept by a resume, a join key's retake and a rematch, and written into the games."""

from __future__ import annotations

import secrets

from core import Rules
from rooms import Role
from rooms.protocol import decode_room, encode_room
from rooms.room import Join, JoinReply, Rematch, Reserve, Room, Seat
from rooms.room.events import NewGame, PlayerJoined
from tests.rooms.room.lifecycle_helpers import T0, at, play
from tests.support.handled import event_of, reply_of

ADA, GRACE = "AdaAdaAdaAda0001", "GraceGraceGrac02"


def linked_room() -> tuple[Room, list[str]]:
    """X taken by Ada's identity, O by a guest without one."""
    room = Room("room0001", Rules(), public=False, created=T0)
    tokens = []
    for join in (Join("c0", Role.PLAYER, "Ada", player_id=ADA), Join("c1", Role.PLAYER, "Bob")):
        token = reply_of(at(room, join, T0), JoinReply).token
        assert token is not None
        tokens.append(token)
    return room, tokens


def test_a_seat_taken_with_an_identity_shows_its_player_id_to_everyone() -> None:
    room = Room("room0001", Rules(), public=False, created=T0)
    joined = at(room, Join("c0", Role.PLAYER, "Ada", player_id=ADA), T0)
    assert event_of(joined, PlayerJoined).player["player_id"] == ADA
    at(room, Join("c1", Role.PLAYER, "Bob"), T0)
    players = room.snapshot(T0)["players"]
    assert [(p["name"], p["player_id"]) for p in players] == [("Ada", ADA), ("Bob", None)]
    assert room.summary()["players"][0]["player_id"] == ADA  # the public room list too


def test_the_link_is_stored_and_a_record_from_before_reads_as_no_link() -> None:
    room, _ = linked_room()
    again = decode_room(encode_room(room))
    assert [seat.player_id for seat in again.seats] == [ADA, None]
    assert encode_room(again) == encode_room(room)
    stored = Seat("X", "Old", "h" * 64).to_dict()
    assert "player_id" not in stored  # guests' seats (and older rooms) carry no field
    assert Seat.from_dict(stored).player_id is None


def test_a_resume_with_the_token_keeps_the_seats_identity() -> None:
    room, tokens = linked_room()
    at(room, Join("c0b", Role.PLAYER, token=tokens[0]), T0 + 1)
    at(room, Join("c1b", Role.PLAYER, token=tokens[1]), T0 + 1)
    assert [seat.player_id for seat in room.seats] == [ADA, None]


def test_a_join_keys_retake_keeps_the_seats_identity() -> None:
    room = Room("room0001", Rules(), public=False, created=T0)
    key = secrets.token_urlsafe(16)
    at(room, Join("c0", Role.PLAYER, "Ada", join_key=key, player_id=ADA), T0)
    again = at(room, Join("c0b", Role.PLAYER, "Ada", join_key=key, player_id=ADA), T0 + 1)
    assert reply_of(again, JoinReply).mark == "X" and len(room.seats) == 1
    assert room.seats[0].player_id == ADA


def test_a_reserved_seat_is_linked_as_a_joined_one() -> None:
    room = Room("room0001", Rules(), public=True, created=T0)
    at(room, Reserve("Grace", player_id=GRACE), T0)
    assert room.players()[0]["player_id"] == GRACE and room.seats[0].player_id == GRACE


def test_a_rematch_keeps_each_link_with_its_player_and_archives_it() -> None:
    room, _ = linked_room()
    t = T0 + 1
    for i, (conn, row, col) in enumerate(
        [("c0", 0, 0), ("c1", 1, 0), ("c0", 0, 1), ("c1", 1, 1), ("c0", 0, 2)]
    ):
        play(room, conn, row, col, t + i)
    at(room, Rematch("c0"), t + 10)
    new_game = event_of(at(room, Rematch("c1"), t + 11), NewGame)
    # colours rotated: Bob is X now, Ada O, and Ada's identity went with her
    assert [(p["mark"], p["name"], p["player_id"]) for p in new_game.players] == [
        ("X", "Bob", None),
        ("O", "Ada", ADA),
    ]
    assert room.seated("c0").player_id == ADA
    game = room.snapshot(t + 12)["games"][0]
    assert game["players"] == [
        {"mark": "X", "name": "Ada", "player_id": ADA},
        {"mark": "O", "name": "Bob"},
    ]
    restored = decode_room(encode_room(room))
    assert [seat.player_id for seat in restored.seats] == [None, ADA]
