"""A player who gives no name is a neutral guest, whatever mark the seat has, for the series."""

from __future__ import annotations

import re

from rooms import Role
from rooms.room import Join
from rooms.room.events import PlayerJoined
from rooms.room.guest_names import guest_name
from tests.rooms.room.room_helpers import new_room
from tests.support.handled import event_of

GUEST = re.compile(r"Guest [1-9][0-9]{3}")


def test_a_guest_name_is_four_digits_and_avoids_the_names_taken() -> None:
    names = {guest_name() for _ in range(50)}
    assert all(GUEST.fullmatch(name) for name in names)
    taken = frozenset(f"Guest {n}" for n in range(1000, 9999))  # all but 9999
    assert guest_name(taken) == "Guest 9999"


def test_players_without_a_name_are_guests_never_named_after_their_mark() -> None:
    room = new_room()
    first = room.handle(Join("a", Role.PLAYER, None), now=1.0)
    second = room.handle(Join("b", Role.PLAYER, None), now=2.0)
    x_name = event_of(first, PlayerJoined).player["name"]
    o_name = event_of(second, PlayerJoined).player["name"]
    assert GUEST.fullmatch(x_name) and GUEST.fullmatch(o_name)
    assert x_name != o_name
    assert "X" not in x_name and "O" not in o_name


def test_a_given_name_is_kept() -> None:
    room = new_room()
    joined = room.handle(Join("a", Role.PLAYER, "Ada"), now=1.0)
    assert event_of(joined, PlayerJoined).player["name"] == "Ada"
