"""The events a room emits: one per change, each carrying the room's new version.

Each event type is a wire value (rooms.common.wire): a frozen dataclass built once, complete,
by the handler of the change, and never changed afterwards. Its fields, in order, are its JSON
object on the wire: it is encoded once per change (rooms.protocol.messages.dumps), kept in the
room's bounded event log and broadcast unchanged to every connection of the room.

Every event ends with ``due``, which hubs read off the end of the text (rooms.fanout.hub.due_of);
the game's events (and ``player_joined``) carry just before it the room's ``clock`` and
``offers`` as the change left them. The nested values (a seat's public view, an outcome, the
clock) are the JSON objects the room's views build, typed read-only. ``EventType`` names
every type; each class's ``type`` is one of its values, a plain string (the test of the wire
form checks that each has one class).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import field
from enum import StrEnum
from typing import Any, Literal, TypeAlias

from rooms.common.wire import wire

__all__ = [
    "DrawDeclined",
    "DrawOffered",
    "Event",
    "EventType",
    "GameOver",
    "Moved",
    "NewGame",
    "PlayerJoined",
    "Presence",
    "Rated",
    "RematchOffered",
    "Spectators",
    "TakebackDeclined",
    "TakebackOffered",
    "Undone",
    "View",
]


class EventType(StrEnum):
    PLAYER_JOINED = "player_joined"
    PRESENCE = "presence"
    SPECTATORS = "spectators"
    MOVED = "moved"
    GAME_OVER = "game_over"
    DRAW_OFFERED = "draw_offered"
    DRAW_DECLINED = "draw_declined"
    TAKEBACK_OFFERED = "takeback_offered"
    TAKEBACK_DECLINED = "takeback_declined"
    UNDONE = "undone"
    REMATCH_OFFERED = "rematch_offered"
    NEW_GAME = "new_game"
    RATED = "rated"


View = Mapping[str, Any]
"""A JSON object as the room builds it (a seat's ``public`` view, an outcome, the clock's or
the offers' view), read-only in an event."""


# -- seats and presence -----------------------------------------------------------------------


@wire
class PlayerJoined:
    """A seat was taken: ``player`` is its public view."""

    type: Literal["player_joined"] = field(default="player_joined", init=False)
    version: int
    player: View
    status: str
    clock: View | None
    offers: View
    due: float | None


@wire
class Presence:
    """A connection of the seat ``mark`` opened or closed: the seat's presence fields."""

    type: Literal["presence"] = field(default="presence", init=False)
    version: int
    mark: str
    connected: bool
    away_since: float | None
    left: bool
    claimable_at: float | None
    due: float | None

    @classmethod
    def of(cls, version: int, player: View, *, due: float | None) -> Presence:
        """The presence event of the seat whose public view is ``player``."""
        return cls(
            version=version,
            mark=player["mark"],
            connected=player["connected"],
            away_since=player["away_since"],
            left=player["left"],
            claimable_at=player["claimable_at"],
            due=due,
        )


@wire
class Spectators:
    type: Literal["spectators"] = field(default="spectators", init=False)
    version: int
    count: int
    due: float | None


# -- the game ---------------------------------------------------------------------------------


@wire
class Moved:
    """A move landed, at the cell it landed on. ``players`` only when it ended the game (the
    series score changed), ``unproven`` only for a proving bot's best guess."""

    type: Literal["moved"] = field(default="moved", init=False)
    version: int
    mark: str
    row: int
    col: int
    layer: int
    ply: int
    turn: str | None
    status: str
    outcome: View | None
    at: float
    players: Sequence[View] | None = None
    unproven: Literal[True] | None = None
    clock: View | None
    offers: View
    due: float | None


@wire
class GameOver:
    """The game ended off the board (resignation, time, abandonment, agreement, abort)."""

    type: Literal["game_over"] = field(default="game_over", init=False)
    version: int
    status: Literal["finished"] = field(default="finished", init=False)
    turn: None = field(default=None, init=False)
    outcome: View
    by: str | None
    players: Sequence[View]
    at: float
    clock: View | None
    offers: View
    due: float | None


@wire
class DrawOffered:
    type: Literal["draw_offered"] = field(default="draw_offered", init=False)
    version: int
    by: str
    clock: View | None
    offers: View
    due: float | None


@wire
class DrawDeclined:
    type: Literal["draw_declined"] = field(default="draw_declined", init=False)
    version: int
    by: str
    clock: View | None
    offers: View
    due: float | None


@wire
class TakebackOffered:
    type: Literal["takeback_offered"] = field(default="takeback_offered", init=False)
    version: int
    by: str
    clock: View | None
    offers: View
    due: float | None


@wire
class TakebackDeclined:
    type: Literal["takeback_declined"] = field(default="takeback_declined", init=False)
    version: int
    by: str
    clock: View | None
    offers: View
    due: float | None


@wire
class Undone:
    """Moves were taken back (``moves``: mark and cell, the last played first)."""

    type: Literal["undone"] = field(default="undone", init=False)
    version: int
    by: str
    moves: Sequence[View]
    board: str
    ply: int
    turn: str
    status: str
    clock: View | None
    offers: View
    due: float | None


# -- the series -------------------------------------------------------------------------------


@wire
class RematchOffered:
    type: Literal["rematch_offered"] = field(default="rematch_offered", init=False)
    version: int
    by: str
    clock: View | None
    offers: View
    due: float | None


@wire
class NewGame:
    """The next game started: ``marks`` maps each old mark to its new one."""

    type: Literal["new_game"] = field(default="new_game", init=False)
    version: int
    game_number: int
    marks: Mapping[str, str]
    players: Sequence[View]
    board: str
    ply: Literal[0] = field(default=0, init=False)
    turn: str
    status: str
    started_at: float
    clock: View | None
    offers: View
    due: float | None


@wire
class Rated:
    """The ratings a rated game changed (rooms.room.rated): ``rating_change`` by mark."""

    type: Literal["rated"] = field(default="rated", init=False)
    version: int
    game_number: int
    pool: str
    rating_change: View
    due: float | None


Event: TypeAlias = (
    PlayerJoined
    | Presence
    | Spectators
    | Moved
    | GameOver
    | DrawOffered
    | DrawDeclined
    | TakebackOffered
    | TakebackDeclined
    | Undone
    | RematchOffered
    | NewGame
    | Rated
)
"""Every event the room emits."""
