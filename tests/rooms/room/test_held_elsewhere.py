"""Whether a room records a connection of another worker (rooms.room.state): what decides if
a worker's commit must be published for others (rooms.service, local first)."""

from __future__ import annotations

from rooms import Role
from rooms.room import Join, JoinSpectators, Leave
from tests.rooms.room.room_helpers import new_room

A, B = "aaaaaaaaaaaa", "bbbbbbbbbbbb"


def test_a_room_without_connections_is_held_nowhere_else() -> None:
    assert not new_room().held_elsewhere(A)


def test_players_and_spectators_of_one_worker_keep_a_room_to_it() -> None:
    room = new_room()
    room.handle(Join(f"{A}.0000000000000001", Role.PLAYER, "Ada"), now=101.0)
    room.handle(Join(f"{A}.0000000000000002", Role.PLAYER, "Bob"), now=101.0)
    room.handle(JoinSpectators((f"{A}.0000000000000003", f"{A}.0000000000000004")), now=102.0)
    assert not room.held_elsewhere(A)
    assert room.held_elsewhere(B)  # to another worker, every one of them is elsewhere


def test_a_player_or_a_spectator_of_another_worker_makes_it_held_elsewhere() -> None:
    room = new_room()
    room.handle(Join(f"{A}.0000000000000001", Role.PLAYER, "Ada"), now=101.0)
    room.handle(Join(f"{B}.0000000000000002", Role.PLAYER, "Bob"), now=101.0)
    assert room.held_elsewhere(A) and room.held_elsewhere(B)
    watched = new_room()
    watched.handle(Join(f"{A}.0000000000000001", Role.PLAYER, "Ada"), now=101.0)
    watched.handle(Join(f"{B}.0000000000000009", Role.SPECTATOR), now=102.0)
    assert watched.held_elsewhere(A)
    watched.handle(Leave(f"{B}.0000000000000009", deliberate=True), now=103.0)
    assert not watched.held_elsewhere(A)  # the other worker's spectator left


def test_a_connection_that_names_no_worker_counts_as_elsewhere() -> None:
    """An id without a worker (a client made outside a worker's presence) cannot be placed:
    the commit is published, as before local-first delivery."""
    room = new_room()
    room.handle(Join("0000000000000001", Role.PLAYER, "Ada"), now=101.0)
    assert room.held_elsewhere(A)
