"""Decoding a room from an earlier state of it keeps what did not change: the base's
seats, spectator list and offers where the text holds equal values (rooms.protocol.codec), and only
where a full decode would have built equal ones, so an edited record decodes as in full, or
is refused alike. Decoded rooms share those parts, which commands never change (they work
on ``Room.copy``); the room is built without ``__init__`` (``Room.restored``)."""

from __future__ import annotations

from typing import Any

import pytest

from core import MoveRequest, Rules
from rooms import Role, RoomError
from rooms.protocol import decode_room, encode_room
from rooms.room import Join, PlayMove
from tests.rooms.room.room_helpers import conn_of, decode_refusal, edited, new_room, texts_of


def _seat(index: int, key: str, value: Any) -> Any:
    return lambda data: data["seats"][index].__setitem__(key, value)


def _offer(key: str, value: Any) -> Any:
    return lambda data: data["offers"].__setitem__(key, value)


@pytest.mark.parametrize(
    "edit",
    [
        # O's seat (index 1) did not change from the base: each edit meets the comparison
        _seat(1, "wins", True),  # equal to 1, not 1: the text must say what a full decode says
        _seat(1, "wins", 1.0),
        _seat(1, "draws", "0"),
        _seat(1, "left", 0),
        _seat(1, "away_since", 5),
        _seat(1, "away_since", "5"),
        _seat(1, "connections", ["c1", 7]),
        _seat(1, "connections", "c1"),
        _seat(1, "connections", ("c1",)),
        _seat(1, "moves", {"m3": 4.0}),
        _seat(1, "moves", {"m3": "4"}),
        _seat(1, "moves", []),
        _seat(1, "bot", None),
        _seat(1, "bot", "easy"),
        _seat(1, "name", 7),
        _seat(1, "token_hash", None),
        _seat(0, "wins", True),  # X's seat changed (X played): built in any case
        _seat(0, "name", ["P0"]),
        lambda data: data["seats"][1].pop("wins"),  # the default, 0: what the base holds
        lambda data: data["seats"][1].pop("left"),
        lambda data: data["seats"][1].pop("bot"),
        lambda data: data["seats"][1].pop("mark"),
        lambda data: data["seats"][1].pop("moves"),
        lambda data: data["seats"].__setitem__(0, ["not", "a", "seat"]),
        lambda data: data["seats"].__setitem__(1, "seat"),
        lambda data: data["seats"].reverse(),
        lambda data: data["seats"].pop(),
        lambda data: data.__setitem__("seats", "XO"),
        lambda data: data.__setitem__("spectators", ["s1", 2]),
        lambda data: data.__setitem__("spectators", "s1"),
        lambda data: data.__setitem__("spectators", {"s1": 1}),
        lambda data: data.pop("spectators"),
        _offer("draw", "X"),
        _offer("draw", 1),
        _offer("draw_moves", {"X": 1.0}),
        _offer("draw_moves", {"X": True}),
        _offer("draw_moves", []),
        _offer("takeback_not_before", {"O": 3}),
        _offer("rematch", ["X", 1]),
        _offer("rematch", "X"),
        lambda data: data["offers"].pop("rematch"),
        lambda data: data.__setitem__("offers", None),
        lambda data: data.__setitem__("offers", ["draw"]),
        lambda data: data.__setitem__("offers", "draw"),
        lambda data: data.pop("offers"),
    ],
)
def test_an_edited_seat_spectator_list_or_offer_decodes_as_in_full(edit: Any) -> None:
    *_, earlier, later = (
        edited(text, lambda data: data.__setitem__("spectators", ["s1"]))
        for text in texts_of(Rules(), [0, 4, 8])
    )
    base = decode_room(earlier)
    text = edited(later, edit)
    try:
        full = decode_room(text)
    except RoomError:
        assert decode_refusal(text, base) == decode_refusal(text, None)
        return
    room = decode_room(text, base)
    assert encode_room(room) == encode_room(full)
    assert [vars_of(seat) for seat in room.seats] == [vars_of(seat) for seat in full.seats]
    assert vars_of(room.offers) == vars_of(full.offers)
    assert room.spectators == full.spectators


def vars_of(value: Any) -> list[tuple[str, Any, type]]:
    """A slotted value's fields with their types (``1 == 1.0 == True``: the type tells)."""
    names = value.__slots__
    return [(name, getattr(value, name), type(getattr(value, name))) for name in names]


def test_the_seats_offers_and_spectators_that_did_not_change_are_the_bases() -> None:
    *_, earlier, later = texts_of(Rules(), [0, 4, 8])
    base = decode_room(earlier)
    room = decode_room(later, base)
    mover, other = (room.seat_by_mark(mark) for mark in "XO")
    assert mover is not None and other is not None
    assert mover is not base.seat_by_mark("X")  # X played 8: its move ids changed
    assert other is base.seat_by_mark("O")
    assert room.offers is base.offers and room.spectators is base.spectators
    # a command works on a copy (Room.copy): what it changes is never the base's
    before = encode_room(base)
    changed = room.copy()
    changed.handle(Join("s9", Role.SPECTATOR), 103.0)
    changed.handle(
        PlayMove(conn_of(changed, "O"), MoveRequest(row=0, col=2), changed.version, "o-late"), 104.0
    )
    assert encode_room(base) == before
    assert room.spectators == [] and "o-late" not in other.moves


def test_a_decoded_room_has_the_attributes_a_new_room_has() -> None:
    """``Room.restored`` fills the attributes without ``__init__``: the names must stay
    the ones ``__init__`` sets, for a full decode and one from a base alike."""
    text = texts_of(Rules(), [0, 4])[-1]
    names = set(vars(new_room(Rules())))
    assert set(vars(decode_room(text))) == names
    assert set(vars(decode_room(text, decode_room(text)))) == names
    assert set(vars(decode_room(text).copy())) == names
