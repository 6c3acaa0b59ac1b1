"""The stored form of a room: exact round trip, corrupted records refused."""

from __future__ import annotations

import json

import pytest

from core import Rules
from rooms import ErrorCode, Role, RoomError
from rooms.protocol import decode_room, encode_room
from rooms.room import Join
from tests.rooms.room.room_helpers import move, seated


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
        lambda d: d["seats"][0]["moves"].update(m="x"),  # a move id's version not a number
        lambda d: d["seats"][0].update(moves=["m"]),
        lambda d: d["settings"].update(abandon_grace=-1),
        lambda d: d["settings"].update(abandon_grace=[30]),
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


def test_settings_are_decoded_once_and_a_bad_one_is_refused_every_time() -> None:
    room, _ = seated()
    text = encode_room(room)
    assert decode_room(text).settings is decode_room(text).settings  # immutable: shared
    data = json.loads(text)
    data["settings"]["leave_grace"] = 0
    for _ in range(2):
        with pytest.raises(RoomError) as info:
            decode_room(json.dumps(data))
        assert info.value.code is ErrorCode.INTERNAL_ERROR
    data["settings"]["leave_grace"] = 7  # a whole number where a float was: the same value
    assert decode_room(json.dumps(data)).settings.leave_grace == 7.0


def test_seat_move_versions_written_by_older_code_still_decode() -> None:
    room, _ = seated()
    data = json.loads(encode_room(room))
    data["seats"][0]["moves"] = {"m1": 3.0, "m2": "4"}
    assert decode_room(json.dumps(data)).seats[0].moves == {"m1": 3, "m2": 4}
