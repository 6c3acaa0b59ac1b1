"""Endings off the board: resign, abort, claims (abandonment or time) and timer ticks.

Each one ends the game through ``Room.end`` (one ``game_over`` event, the series score
updated). Nothing is forfeited automatically while a player is away: only the opponent's
claim ends such a game, and never a correspondence game's (days per move: players are away
most of the time; its deadline alone decides). A flag, though, falls by itself: a ``Tick``
from any worker's timer commits it, and a stale tick (the player moved meanwhile) changes
nothing.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from rooms.errors import ErrorCode, RoomError
from rooms.room.commands import Abort, Claim, Done, Resign, Retire, Tick
from rooms.room.handled import Handled, Status

if TYPE_CHECKING:
    from rooms.room.state import RoomState

__all__ = ["abort", "claim", "resign", "retire", "tick"]


def resign(room: RoomState, command: Resign, now: float) -> Handled:
    seat = room.seated(command.conn)
    room.require_playing()
    return room.end(lambda: room.game.resign(seat.mark), now, by=seat.mark)


def abort(room: RoomState, command: Abort, now: float) -> Handled:
    seat = room.seated(command.conn)
    if room.status is Status.FINISHED:
        room.require_playing()  # raises game_over
    if room.settings.tournament is not None:  # an abort would score against the side to move
        raise RoomError(ErrorCode.CANNOT_ABORT, "a tournament game cannot be aborted (resign)")
    if room.game.ply >= room.rules.players:
        raise RoomError(
            ErrorCode.CANNOT_ABORT,
            "every player has moved; the game can no longer be aborted (resign instead)",
        )
    return room.end(room.game.abort, now, by=seat.mark)


def claim(room: RoomState, command: Claim, now: float) -> Handled:
    seat = room.seated(command.conn)
    room.require_playing()
    if command.mark is not None and command.mark not in {s.mark for s in room.seats}:
        raise RoomError(ErrorCode.BAD_MESSAGE, f"there is no seat {command.mark!r:.8}")
    deadline = room.deadline()
    if (
        deadline is not None
        and not deadline.first_move
        and deadline.mark != seat.mark
        and now >= deadline.at
        and command.mark in (None, deadline.mark)
    ):
        return _flag(room, deadline.mark, now, by=seat.mark)
    if room.correspondence:
        raise RoomError(
            ErrorCode.NOT_CLAIMABLE,
            "a correspondence game ends by its deadline, not by absence; play on or wait",
        )
    settings = room.settings
    waits: list[float] = []
    for other in room.seats:
        if other is seat or (command.mark is not None and other.mark != command.mark):
            continue
        at = other.claimable_at(settings.abandon_grace, settings.leave_grace)
        if at is None:
            continue
        if now >= at:
            return room.end(
                partial(room.game.abandon, other.mark, draw=command.draw), now, by=seat.mark
            )
        waits.append(at - now)
    if waits:
        wait = min(waits)
        raise RoomError(
            ErrorCode.NOT_CLAIMABLE,
            f"the opponent may still come back; you can claim in {wait:.1f} s",
            retry_after=round(wait, 3),
        )
    raise RoomError(ErrorCode.NOT_CLAIMABLE, "nobody is gone and no clock ran out; play on")


def tick(room: RoomState, command: Tick, now: float) -> Handled:
    """Flag the side to move, or abort a game whose first move did not come, if due."""
    deadline = room.deadline() if room.status is Status.PLAYING else None
    if deadline is None or now < deadline.at:
        return Handled(None, Done(None))
    if deadline.first_move:
        return room.end(room.game.abort, now, by=None)
    return _flag(room, deadline.mark, now, by=None)


def _flag(room: RoomState, mark: str, now: float, *, by: str | None) -> Handled:
    def timeout() -> object:
        assert room.clock is not None
        room.clock.remaining[mark] = 0.0
        return room.game.timeout(mark)

    return room.end(timeout, now, by=by, charge=False)


def retire(room: RoomState, command: Retire, now: float) -> Handled:
    if room.status is not Status.WAITING:
        return Handled(None, Done(None))
    return room.end(room.game.abort, now, by=None)
