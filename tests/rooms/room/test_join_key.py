"""Idempotent seat-taking in the sans-I/O room: a join (or a quick-play reservation) repeated
with its join key takes the same seat again with a fresh token, until the token resumes it."""

from __future__ import annotations

import json
import secrets

import pytest

from rooms import ErrorCode, Role, Room
from rooms.protocol import decode_room, encode_room
from rooms.room import Join, JoinReply, Leave, Reserve
from rooms.room.events import Presence
from rooms.room.seats import Seat, hash_token
from tests.rooms.room.room_helpers import edited, new_room, refused


def key() -> str:
    return secrets.token_urlsafe(16)


def joined(room: Room, conn: str, join_key: str | None, now: float = 101.0) -> JoinReply:
    handled = room.handle(Join(conn, Role.PLAYER, conn, join_key=join_key), now=now)
    assert isinstance(handled.reply, JoinReply)
    return handled.reply


def token_of(reply: JoinReply) -> str:
    assert reply.token is not None
    return reply.token


def test_a_repeated_join_with_its_key_gets_the_same_seat_and_a_new_token() -> None:
    room, mine, theirs = new_room(), key(), key()
    first = joined(room, "lost", mine)
    other = joined(room, "b", theirs)
    version = room.version
    again = room.handle(Join("retry", Role.PLAYER, "Renamed", join_key=mine), now=105.0)
    assert isinstance(again.reply, JoinReply)
    assert (again.reply.role, again.reply.mark) == (Role.PLAYER, first.mark)
    assert again.reply.token not in (None, first.token, other.token)
    assert isinstance(again.event, Presence)
    assert room.version == version + 1
    seat = room.seat_by_mark("X")
    assert seat is not None and seat.connections == ["lost", "retry"]  # the half-open one stays
    assert seat.name == "lost", "a repeat takes the seat as it is"
    assert [s.mark for s in room.seats] == ["X", "O"]


def test_the_lost_token_stops_working_and_the_new_one_resumes() -> None:
    room, mine = new_room(), key()
    lost = token_of(joined(room, "c0", mine))
    joined(room, "c1", key())
    fresh = token_of(joined(room, "c2", mine))
    error = refused(room, Join("c3", Role.PLAYER, token=lost))
    assert error.code is ErrorCode.BAD_TOKEN
    resumed = room.handle(Join("c4", Role.PLAYER, token=fresh), now=106.0)
    assert isinstance(resumed.reply, JoinReply) and resumed.reply.mark == "X"


def test_another_key_gets_room_full_and_no_key_too() -> None:
    room = new_room()
    joined(room, "a", key())
    joined(room, "b", key())
    assert refused(room, Join("c", Role.PLAYER, join_key=key())).code is ErrorCode.ROOM_FULL
    assert refused(room, Join("d", Role.PLAYER)).code is ErrorCode.ROOM_FULL


def test_a_token_resume_clears_the_key_which_then_gets_room_full() -> None:
    room, mine = new_room(), key()
    token = token_of(joined(room, "a", mine))
    joined(room, "b", key())
    seat = room.seat_by_mark("X")
    assert seat is not None and seat.key_hash == hash_token(mine)
    room.handle(Leave("a"), now=102.0)
    room.handle(Join("a2", Role.PLAYER, token=token), now=103.0)
    assert seat.key_hash is None
    assert hash_token(mine) not in encode_room(room)
    assert refused(room, Join("a3", Role.PLAYER, join_key=mine)).code is ErrorCode.ROOM_FULL


def test_a_repeat_comes_back_to_an_away_seat() -> None:
    room, mine = new_room(), key()
    joined(room, "a", mine)
    room.handle(Leave("a", deliberate=True), now=102.0)
    seat = room.seat_by_mark("X")
    assert seat is not None
    assert (seat.connections, seat.away_since, seat.left) == ([], 102.0, True)
    joined(room, "a2", mine, now=103.0)
    assert (seat.connections, seat.away_since, seat.left) == (["a2"], None, False)


def test_the_key_is_stored_only_as_a_hash_and_round_trips_the_codec() -> None:
    room, mine = new_room(), key()
    joined(room, "a", mine)
    text = encode_room(room)
    assert mine not in text and hash_token(mine) in text
    decoded = decode_room(text)
    assert [s.to_dict() for s in decoded.seats] == [s.to_dict() for s in room.seats]
    assert decoded.seats[0].key_hash == hash_token(mine)
    assert decode_room(text, room).seats[0] is room.seats[0]  # an equal seat is kept
    again = decoded.handle(Join("b", Role.PLAYER, join_key=mine), now=104.0)
    assert isinstance(again.reply, JoinReply) and again.reply.mark == "X"
    assert decode_room(encode_room(decoded), room).seats[0].connections == ["a", "b"]


def test_a_stored_room_without_the_field_still_loads() -> None:
    room = new_room()
    joined(room, "a", key())
    text = encode_room(room)
    old = edited(text, lambda data: data["seats"][0].pop("key_hash"))  # as written before keys
    assert '"key_hash"' in text and '"key_hash"' not in old
    decoded = decode_room(old)
    assert decoded.seats[0].key_hash is None
    assert decoded.seats[0].matches(json.loads(old)["seats"][0])
    assert joined(decoded, "b", key()).mark == "O"  # no key on the old seat: a new seat


def test_seat_copy_and_matches_carry_the_key_hash() -> None:
    seat = Seat("X", "Ada", "t", ["c"], key_hash="k")
    assert seat.copy().key_hash == "k"
    assert seat.matches(seat.to_dict())
    assert not seat.matches({**seat.to_dict(), "key_hash": "other"})
    assert not Seat("X", "Ada", "t", ["c"]).matches(seat.to_dict())


def test_spectators_and_tokens_do_not_go_with_a_key() -> None:
    room, mine = new_room(), key()
    token = token_of(joined(room, "a", mine))
    spectator = refused(room, Join("s", Role.SPECTATOR, join_key=key()))
    assert spectator.code is ErrorCode.BAD_MESSAGE and "join_key" in spectator.message
    both = refused(room, Join("b", Role.PLAYER, token=token, join_key=mine))
    assert both.code is ErrorCode.BAD_MESSAGE


def test_a_bot_seat_never_matches_a_key() -> None:
    room = new_room()
    room.seat_bot("perfect", "O")
    reply = joined(room, "a", key())
    assert reply.mark == "X"
    assert refused(room, Join("b", Role.PLAYER, join_key=key())).code is ErrorCode.ROOM_FULL


def test_a_reservation_with_a_key_is_taken_again_only_by_that_key() -> None:
    room, mine = new_room(), key()
    first = room.handle(Reserve("Ada", mine), now=101.0).reply
    assert isinstance(first, JoinReply) and first.token is not None
    again = room.handle(Reserve("Ada", mine, again=True), now=102.0).reply
    assert isinstance(again, JoinReply)
    assert again.mark == first.mark and again.token not in (None, first.token)
    seat = room.seat_by_mark("X")
    assert seat is not None and seat.connections == [] and seat.away_since == 101.0
    assert len(room.seats) == 1
    error = refused(room, Reserve("Bob", key(), again=True))
    assert error.code is ErrorCode.BAD_TOKEN
    same = room.handle(Reserve("Ada", mine), now=103.0).reply  # not ``again``: found anyway
    assert isinstance(same, JoinReply) and same.mark == "X" and len(room.seats) == 1


@pytest.mark.parametrize("players", [3, 4])
def test_keys_pick_their_own_seats_among_many(players: int) -> None:
    from core import Rules

    room = new_room(Rules(rows=5, cols=5, k=3, players=players))
    keys = [key() for _ in range(players)]
    marks = [joined(room, f"c{i}", k).mark for i, k in enumerate(keys)]
    for index in reversed(range(players)):
        assert joined(room, f"r{index}", keys[index]).mark == marks[index]
    assert len(room.seats) == players


def test_join_and_reserve_never_print_the_key() -> None:
    secret = key()
    assert secret not in repr(Join("c", Role.PLAYER, join_key=secret))
    assert secret not in repr(Reserve("Ada", secret))
