"""The authoritative room as a sans-I/O state machine: ``handle(command, now) -> Handled``.

``handle`` validates a command completely before changing anything, so a refused command
(a ``RoomError``) leaves the room exactly as it was; an accepted change bumps the version
by one and yields exactly one event, which its handler builds complete, last (every event
carries ``due``, computed from the room as the change left it). No sockets, no clock (``now``
is passed in), no randomness but the new seat tokens.

The state and its shared bookkeeping are ``rooms.room.state``; each command is handled by
one function of a lifecycle module (``seating``, ``moves``, ``endings``, ``offers``,
``rematch``), chosen here, in the one place nothing imports back.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rooms.errors import ErrorCode, RoomError
from rooms.room import endings, moves, offers, rated, rematch, seating, views
from rooms.room.commands import (
    Abort,
    Answer,
    BotMove,
    Claim,
    Command,
    Evict,
    Join,
    JoinSpectators,
    Leave,
    LeaveSpectators,
    Offer,
    PlayMove,
    RatingsApplied,
    Rematch,
    Reserve,
    Resign,
    Retire,
    Tick,
)
from rooms.room.handled import Handled, Status
from rooms.room.state import RoomState

__all__ = ["Handled", "Room", "Status"]


class Room(RoomState):
    def handle(self, command: Command, now: float) -> Handled:
        """Apply ``command`` at time ``now``; raises RoomError (and changes nothing) if refused."""
        handler = _HANDLERS.get(type(command))
        if handler is None:
            raise RoomError(ErrorCode.BAD_MESSAGE, f"not a room command: {command!r}")
        return handler(self, command, now)

    def snapshot(self, now: float | None = None) -> dict[str, Any]:
        """The full state everyone may see (protocol.md, "The snapshot"): no tokens."""
        return views.snapshot(self, self.updated if now is None else now)

    def summary(self) -> dict[str, Any]:
        """One line of the public room list."""
        return views.summary(self)

    def __repr__(self) -> str:
        return (
            f"<Room {self.room_id} v{self.version} {self.status.value} "
            f"{self.rules.describe()} {self.game.board.text}>"
        )


_HANDLERS: dict[type, Callable[[Room, Any, float], Handled]] = {
    Join: seating.join,
    JoinSpectators: seating.join_spectators,
    Reserve: seating.reserve,
    Leave: seating.leave,
    LeaveSpectators: seating.leave_spectators,
    Evict: seating.evict,
    PlayMove: moves.move,
    BotMove: moves.bot_move,
    Resign: endings.resign,
    Abort: endings.abort,
    Claim: endings.claim,
    Tick: endings.tick,
    Retire: endings.retire,
    Offer: offers.offer,
    Answer: offers.answer,
    Rematch: rematch.rematch,
    RatingsApplied: rated.applied,
}
