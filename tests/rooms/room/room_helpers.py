"""Shared helpers for the sans-I/O room tests (no event loop anywhere)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from core import MoveRequest, Rules
from rooms import ErrorCode, Role, Room, RoomError
from rooms.protocol import decode_room, encode_room
from rooms.room import Handled, Join, JoinReply, PlayMove
from tests.support.handled import reply_of


def new_room(rules: Rules | None = None, *, public: bool = False) -> Room:
    return Room("room0001", rules or Rules(), public=public, created=100.0)


def seated(rules: Rules | None = None, *, players: int | None = None) -> tuple[Room, list[str]]:
    """A room with every seat taken by connections c0, c1, ...; returns (room, tokens)."""
    room = new_room(rules)
    tokens = []
    for i in range(players if players is not None else room.rules.players):
        token = reply_of(
            room.handle(Join(f"c{i}", Role.PLAYER, f"P{i}"), now=101.0), JoinReply
        ).token
        assert token is not None
        tokens.append(token)
    return room, tokens


def move(
    room: Room,
    conn: str,
    col: int,
    row: int | None = None,
    *,
    layer: int | None = None,
    move_id: str | None = None,
    version: int | None = None,
) -> Handled:
    request = MoveRequest(col=col, row=row, layer=layer)
    return room.handle(
        PlayMove(
            conn,
            request,
            room.version if version is None else version,
            move_id or f"{conn}-{room.version}",
        ),
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


def conn_of(room: Room, mark: str) -> str:
    """The first connection of the seat playing ``mark``."""
    return next(seat.connections[0] for seat in room.seats if seat.mark == mark)


def texts_of(rules: Rules, cells: list[int]) -> list[str]:
    """One room's texts: once seated (``seated``), then after each of ``cells`` played."""
    room, _ = seated(rules)
    texts = [encode_room(room)]
    for index in cells:
        row, col, _ = rules.coords(index)
        room.handle(
            PlayMove(
                conn_of(room, room.game.turn),
                MoveRequest(row=row, col=col),
                room.version,
                f"m{room.version}",
            ),
            102.0,
        )
        texts.append(encode_room(room))
    return texts


def edited(text: str, edit: Callable[[Any], object]) -> str:
    """A room text with ``edit`` applied to its parsed JSON (a corrupted record, say)."""
    data = json.loads(text)
    edit(data)
    return json.dumps(data, separators=(",", ":"))


def decode_refusal(text: str, base: Room | None) -> str:
    """The message of the refusal ``decode_room(text, base)`` must give."""
    try:
        decode_room(text, base)
    except RoomError as exc:
        assert exc.code is ErrorCode.INTERNAL_ERROR
        return str(exc)
    raise AssertionError("the record was decoded")
