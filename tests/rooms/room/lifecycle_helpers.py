"""Helpers for the lifecycle tests of the sans-I/O room: rooms with settings, moves and
commands at a given ``now`` (time is always passed in; no event loop anywhere)."""

from __future__ import annotations

from typing import Any

from core import MoveRequest, Rules
from rooms import Command, Role, Room, RoomError
from rooms.protocol import encode_room
from rooms.room import Handled, Join, JoinReply, PlayMove
from rooms.room.config import RoomSettings, TimeControl
from tests.support.handled import reply_of

T0 = 1000.0


def room_with(
    rules: Rules | None = None,
    *,
    settings: RoomSettings | None = None,
    time_control: TimeControl | None = None,
    bot: tuple[str, str] | None = None,
    players: int | None = None,
    now: float = T0,
) -> tuple[Room, list[str]]:
    """A room whose human seats are taken by connections c0, c1, ... at ``now``."""
    settings = settings or RoomSettings()
    if time_control is not None:
        settings = settings.with_time_control(time_control)
    room = Room("room0001", rules or Rules(), public=False, created=now, settings=settings)
    if bot is not None:
        room.seat_bot(*bot)
    tokens = []
    humans = (players if players is not None else room.rules.players) - len(room.seats)
    for i in range(humans):
        handled = room.handle(Join(f"c{i}", Role.PLAYER, f"P{i}"), now=now)
        token = reply_of(handled, JoinReply).token
        assert token is not None
        tokens.append(token)
    return room, tokens


def at(room: Room, command: Command, now: float) -> Handled:
    """Handle ``command`` at ``now`` and expect a change (one event)."""
    handled = room.handle(command, now)
    assert handled.event is not None, f"{command!r} changed nothing"
    assert handled.event.version == room.version
    return handled


def play(room: Room, conn: str, row: int, col: int, now: float) -> Handled:
    request = MoveRequest(col=col, row=row)
    return at(room, PlayMove(conn, request, room.version, f"{conn}-{room.version}"), now)


def refused_at(room: Room, command: Any, now: float) -> RoomError:
    """Handle ``command`` at ``now``, expect a RoomError, and check nothing changed."""
    before = encode_room(room)
    try:
        room.handle(command, now)
    except RoomError as exc:
        assert encode_room(room) == before, "a refused command changed the room"
        return exc
    raise AssertionError(f"{command!r} was accepted")
