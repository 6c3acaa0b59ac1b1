"""Room.copy: a twin in the same state that commands change without touching the original
(the service handles every command on a copy of its cached room)."""

from __future__ import annotations

from typing import Any

from core import Rules
from rooms import Role, Room
from rooms.protocol import decode_room, encode_room
from rooms.room import Answer, Join, Leave, Offer, OfferKind, Rematch, Resign
from rooms.room.config import TimeControl
from tests.rooms.room.lifecycle_helpers import T0, at, play, room_with

SHARED = {
    "room_id",
    "rules",
    "public",
    "created",
    "updated",
    "version",
    "game_version",
    "settings",
    "turn_started",
    "started_at",
    "ended_at",
    "game_number",
    "games",
}
"""What a copy may share with its room: immutable values (everything else is copied)."""


def busy_room() -> tuple[Room, list[str]]:
    """A room with something in every part: clocks, a finished earlier game, moves, a
    declined draw, a pending takeback, a spectator and an away seat."""
    room, tokens = room_with(time_control=TimeControl(60.0, 1.0))
    play(room, "c0", 0, 0, T0 + 1)
    play(room, "c1", 1, 1, T0 + 2)
    at(room, Offer("c0", OfferKind.DRAW), T0 + 3)
    at(room, Answer("c1", OfferKind.DRAW, False), T0 + 4)
    at(room, Resign("c1"), T0 + 5)
    at(room, Rematch("c0"), T0 + 6)
    at(room, Rematch("c1"), T0 + 7)
    assert room.seat_of("c1") is room.seat_by_mark("X")  # the marks rotated
    play(room, "c1", 0, 0, T0 + 8)
    play(room, "c0", 2, 2, T0 + 9)
    at(room, Join("s0", Role.SPECTATOR), T0 + 10)
    at(room, Offer("c1", OfferKind.TAKEBACK), T0 + 11)
    at(room, Leave("c1", deliberate=True), T0 + 12)
    return room, tokens


def seen(room: Room) -> tuple[Any, ...]:
    return (encode_room(room), room.snapshot(T0 + 20), room.summary(), room.due())


def test_a_copy_is_the_same_room_and_commands_on_it_leave_the_original_alone() -> None:
    room, tokens = busy_room()
    assert room.games and room.clock is not None and room.offers.takeback == "X"
    x = room.seat_by_mark("X")
    assert x is not None and x.away_since is not None
    before = seen(room)
    twin = room.copy()
    assert seen(twin) == before
    assert encode_room(decode_room(encode_room(twin))) == before[0]
    # After the rematch c1 plays X: it asked for the takeback and then left.
    commands: list[Any] = [
        Join("c1b", Role.PLAYER, token=tokens[1]),  # the away seat comes back
        Answer("c0", OfferKind.TAKEBACK, True),  # game, move times, clock, offers
        Join("s1", Role.SPECTATOR),
        Leave("s0"),
        Offer("c0", OfferKind.DRAW),
        Resign("c1b"),  # the series score
        Rematch("c0"),
        Rematch("c1b"),  # a new game: the earlier games grow
    ]
    for step, command in enumerate(commands):
        at(twin, command, T0 + 30 + step)
        assert seen(room) == before, command
    assert len(twin.games) == len(room.games) + 1 and twin.game_number == room.game_number + 1
    # The original still takes commands as if the copy had never existed.
    at(room, Join("c1c", Role.PLAYER, token=tokens[1]), T0 + 40)
    assert room.version == before[1]["version"] + 1


def test_a_copy_shares_only_immutable_values() -> None:
    for room in (busy_room()[0], room_with(Rules(rows=6, cols=7, k=4, gravity=True))[0]):
        twin = room.copy()
        assert vars(twin).keys() == vars(room).keys()
        for name, value in vars(room).items():
            if name not in SHARED and value is not None:
                assert vars(twin)[name] is not value, f"{name} is shared"
        for mine, theirs in zip(room.seats, twin.seats, strict=True):
            assert mine == theirs and mine is not theirs
            assert mine.connections is not theirs.connections and mine.moves is not theirs.moves
