"""Shared helpers for the sans-I/O room tests (no event loop anywhere)."""

from __future__ import annotations

from typing import Any

from core import MoveRequest, Rules
from rooms import Handled, Join, PlayMove, Role, Room, RoomError, encode_room

BACKEND_URLS = ["memory://", "redis", "redis-cluster"]
"""Every store/bus backend the contract suite runs against ("redis": conftest's private
redis-server; "redis-cluster": its private three-master Redis Cluster)."""
CONTRACT_LOG_SIZE = 4


def new_room(rules: Rules | None = None, *, public: bool = False) -> Room:
    return Room("room0001", rules or Rules(), public=public, created=100.0)


def seated(rules: Rules | None = None, *, players: int | None = None) -> tuple[Room, list[str]]:
    """A room with every seat taken by connections c0, c1, ...; returns (room, tokens)."""
    room = new_room(rules)
    tokens = []
    for i in range(players if players is not None else room.rules.players):
        handled = room.handle(Join(f"c{i}", Role.PLAYER, f"P{i}"), now=101.0)
        assert handled.reply.token is not None  # type: ignore[union-attr]
        tokens.append(handled.reply.token)  # type: ignore[union-attr]
    return room, tokens


def move(room: Room, conn: str, col: int, row: int | None = None, *, layer: int | None = None,
         move_id: str | None = None, version: int | None = None) -> Handled:
    request = MoveRequest(col=col, row=row, layer=layer)
    return room.handle(
        PlayMove(conn, request, room.version if version is None else version,
                 move_id or f"{conn}-{room.version}"),
        now=102.0,
    )


def refused(room: Room, command: Any) -> RoomError:
    """Handle ``command``, expect a RoomError, and check the room did not change at all."""
    before = encode_room(room)
    try:
        room.handle(command, now=999.0)
    except RoomError as exc:
        assert encode_room(room) == before, "a refused command changed the room"
        return exc
    raise AssertionError(f"{command!r} was accepted")
