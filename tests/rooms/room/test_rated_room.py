"""A rated room in the sans-I/O room: only two different verified identities take its seats,
nothing is taken back, and a game's end (other than an abort) leaves one pending entry that
keeps the room due until ``RatingsApplied`` clears it with one ``rated`` event."""

from __future__ import annotations

from typing import Any

import pytest

from core import Rules
from rooms import ErrorCode, Role, RoomError
from rooms.protocol import decode_room, encode_room
from rooms.room import Abort, Join, Offer, OfferKind, Rematch, Resign, Room
from rooms.room.commands import RatingsApplied
from rooms.room.config import RoomSettings
from rooms.room.events import Rated
from rooms.room.seats import Seat
from tests.rooms.room.lifecycle_helpers import T0, at, play, refused_at

ADA, BOB = "AdaAdaAdaAda0001", "BobBobBobBob0002"
CHANGE: dict[str, Any] = {
    "X": {"player_id": ADA, "before": 1500.0, "after": 1662.3, "provisional": True},
    "O": {"player_id": BOB, "before": 1500.0, "after": 1337.7, "provisional": True},
}


def rated_room() -> Room:
    room = Room(
        "room0001", Rules(), public=False, created=T0, settings=RoomSettings(pool="classic.untimed")
    )
    at(room, Join("c0", Role.PLAYER, "Ada", player_id=ADA), T0)
    at(room, Join("c1", Role.PLAYER, "Bob", player_id=BOB), T0)
    return room


def test_a_rated_seat_needs_an_identity_and_one_identity_takes_one_seat() -> None:
    room = Room(
        "room0001", Rules(), public=False, created=T0, settings=RoomSettings(pool="classic.untimed")
    )
    assert refused_at(room, Join("c0", Role.PLAYER, "Ada"), T0).code is ErrorCode.IDENTITY_REQUIRED
    at(room, Join("c0", Role.PLAYER, "Ada", player_id=ADA), T0)
    again = refused_at(room, Join("c1", Role.PLAYER, "Ada 2", player_id=ADA), T0)
    assert again.code is ErrorCode.IDENTITY_SEATED
    at(room, Join("s0", Role.SPECTATOR), T0)  # anyone watches
    at(room, Join("c1", Role.PLAYER, "Bob", player_id=BOB), T0)
    snapshot = room.snapshot(T0)
    assert snapshot["rated"] is True and snapshot["pool"] == "classic.untimed"
    assert room.summary()["pool"] == "classic.untimed"
    unrated = Room("room0002", Rules(), public=False, created=T0).snapshot(T0)
    assert unrated["rated"] is False and unrated["pool"] is None


def test_a_rated_game_takes_nothing_back_and_seats_no_bot() -> None:
    room = rated_room()
    play(room, "c0", 0, 0, T0 + 1)
    refused = refused_at(room, Offer("c0", OfferKind.TAKEBACK), T0 + 2)
    assert refused.code is ErrorCode.RATED_GAME
    bare = Room(
        "room0003", Rules(), public=False, created=T0, settings=RoomSettings(pool="classic.untimed")
    )
    with pytest.raises(RoomError) as caught:
        bare.seat_bot("easy", "O")
    assert caught.value.code is ErrorCode.NOT_RATED


def test_a_tournament_game_takes_nothing_back_either() -> None:
    room = Room(
        "room0004", Rules(), public=False, created=T0, settings=RoomSettings(tournament="t1")
    )
    for mark, name, player_id in (("X", "Ada", ADA), ("O", "Bob", BOB)):  # as the director
        room.seats.append(Seat(mark, name, "", away_since=T0, player_id=player_id))
    room.start_if_full(T0)
    at(room, Join("c0", Role.PLAYER, "Ada", player_id=ADA), T0)
    at(room, Join("c1", Role.PLAYER, "Bob", player_id=BOB), T0)
    play(room, "c0", 0, 0, T0 + 1)
    assert refused_at(room, Offer("c0", OfferKind.TAKEBACK), T0 + 2).code is ErrorCode.RATED_GAME


def test_the_end_leaves_one_pending_entry_and_keeps_the_room_due() -> None:
    room = rated_room()
    play(room, "c0", 0, 0, T0 + 1)
    play(room, "c1", 1, 1, T0 + 2)
    assert room.rating_pending == [] and room.due() is None
    at(room, Resign("c1"), T0 + 3)
    assert room.rating_pending == [
        {
            "game_number": 1,
            "pool": "classic.untimed",
            "marks": ["X", "O"],
            "players": [ADA, BOB],
            "score": 1.0,
        }
    ]
    assert room.due() == T0 + 3  # due at once: whoever sees it applies the ratings
    stored = decode_room(encode_room(room))
    assert stored.rating_pending == room.rating_pending and stored.due() == T0 + 3
    applied = at(room, RatingsApplied(1, CHANGE), T0 + 4)
    assert applied.event == Rated(
        version=room.version,
        game_number=1,
        pool="classic.untimed",
        rating_change=CHANGE,
        due=None,
    )
    assert room.rating_pending == [] and room.due() is None
    assert room.snapshot(T0 + 4)["rating_change"]["rating_change"] == CHANGE
    again = room.handle(RatingsApplied(1, CHANGE), T0 + 5)  # a second worker's, late
    assert again.event is None and room.version == applied.event.version
    assert decode_room(encode_room(room)).rating_change == room.rating_change


def test_the_score_is_the_first_marks_and_a_rematch_stays_rated() -> None:
    room = rated_room()
    at(room, Resign("c0"), T0 + 1)
    assert room.rating_pending[0]["score"] == 0.0  # X (Ada) lost
    at(room, Rematch("c0"), T0 + 2)
    at(room, Rematch("c1"), T0 + 2)
    assert room.settings.rated and room.rating_pending[0]["game_number"] == 1
    # the pending entry survives the new game; Bob is X now
    at(room, Resign("c0"), T0 + 3)
    assert [p["players"] for p in room.rating_pending] == [[ADA, BOB], [BOB, ADA]]
    assert room.rating_pending[1]["score"] == 1.0
    at(room, RatingsApplied(2, CHANGE), T0 + 4)
    assert [p["game_number"] for p in room.rating_pending] == [1]


def test_an_aborted_game_is_not_rated() -> None:
    room = rated_room()
    at(room, Abort("c0"), T0 + 1)
    assert room.game.is_over and room.rating_pending == [] and room.due() is None
