"""The stored form of a room: exact round trip, corrupted records refused."""

from __future__ import annotations

import json

import pytest
from room_helpers import move, seated

from core import Rules
from rooms import ErrorCode, Join, Role, RoomError, decode_room, encode_room


def test_round_trip_keeps_everything_but_tokens_in_the_clear() -> None:
    room, tokens = seated(Rules(rows=6, cols=7, k=4, gravity=True))
    room.handle(Join("s", Role.SPECTATOR), now=5.0)
    move(room, "c0", 3, move_id="x1")
    move(room, "c1", 3, move_id="o1")
    text = encode_room(room)
    copy = decode_room(text)
    assert encode_room(copy) == text
    assert copy.snapshot() == room.snapshot()
    assert copy.seats[0].moves == {"x1": room.version - 1}
    assert all(token not in text for token in tokens)


@pytest.mark.parametrize(
    "mutate",
    [
        lambda d: d.update(format=99),
        lambda d: d.pop("seats"),
        lambda d: d["game"].update(moves=[0, 0]),  # the same cell twice: the engine refuses
        lambda d: d["game"].update(moves=[99]),
        lambda d: d.update(version="three"),
    ],
)
def test_corrupted_records_are_refused(mutate) -> None:  # type: ignore[no-untyped-def]
    room, _ = seated()
    data = json.loads(encode_room(room))
    mutate(data)
    with pytest.raises(RoomError) as info:
        decode_room(json.dumps(data))
    assert info.value.code is ErrorCode.INTERNAL_ERROR


def test_not_json_is_refused() -> None:
    with pytest.raises(RoomError):
        decode_room("{not json")
