"""The events a room emits: one per change, each carrying the room's new version.

Each event type is a frozen ``msgspec.Struct``, built once, complete, by the handler of the
change, and never changed afterwards. Its type tag (``type``) and then its fields, in order,
are its JSON object on the wire: it is encoded once per change (rooms.protocol.messages.dumps,
with msgspec's encoder, which writes the same compact JSON as the rest of the protocol), kept
in the room's bounded event log and broadcast unchanged to every connection of the room. A
field sent only sometimes (``Moved.players``, ``Moved.unproven``) defaults to None and is left
out while it is None; every other field is always sent, null or not.

Every event ends with ``due``, which hubs read off the end of the text (rooms.fanout.hub.due_of);
the game's events (and ``player_joined``) carry just before it the room's ``clock`` and
``offers`` as the change left them. The nested values (a seat's public view, an outcome, the
clock) are the JSON objects the room's views build, typed read-only. ``EventType`` names
every type; each class's ``type`` is its tag, one of those values (the test of the wire form
checks that each has one class).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import StrEnum
from typing import Any, Literal, TypeAlias

import msgspec

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
    "optional_keys",
    "type_of",
    "wire_keys",
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


class _Event(msgspec.Struct, frozen=True, kw_only=True, tag_field="type"):
    """What every event is: frozen, built with keywords, tagged with its ``type``."""

    @property
    def type(self) -> str:
        """The event's type as the wire names it (its tag)."""
        tag: str = self.__struct_config__.tag  # type: ignore[assignment]
        return tag


# -- seats and presence -----------------------------------------------------------------------


class PlayerJoined(_Event, tag="player_joined", frozen=True, kw_only=True):
    """A seat was taken: ``player`` is its public view."""

    version: int
    player: View
    status: str
    clock: View | None
    offers: View
    due: float | None


class Presence(_Event, tag="presence", frozen=True, kw_only=True):
    """A connection of the seat ``mark`` opened or closed: the seat's presence fields."""

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


class Spectators(_Event, tag="spectators", frozen=True, kw_only=True):
    version: int
    count: int
    due: float | None


# -- the game ---------------------------------------------------------------------------------


class Moved(_Event, tag="moved", frozen=True, kw_only=True, omit_defaults=True):
    """A move landed, at the cell it landed on. ``players`` only when it ended the game (the
    series score changed), ``unproven`` only for a proving bot's best guess."""

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


class GameOver(_Event, tag="game_over", frozen=True, kw_only=True):
    """The game ended off the board (resignation, time, abandonment, agreement, abort)."""

    version: int
    status: Literal["finished"] = "finished"
    turn: None = None
    outcome: View
    by: str | None
    players: Sequence[View]
    at: float
    clock: View | None
    offers: View
    due: float | None


class DrawOffered(_Event, tag="draw_offered", frozen=True, kw_only=True):
    version: int
    by: str
    clock: View | None
    offers: View
    due: float | None


class DrawDeclined(_Event, tag="draw_declined", frozen=True, kw_only=True):
    version: int
    by: str
    clock: View | None
    offers: View
    due: float | None


class TakebackOffered(_Event, tag="takeback_offered", frozen=True, kw_only=True):
    version: int
    by: str
    clock: View | None
    offers: View
    due: float | None


class TakebackDeclined(_Event, tag="takeback_declined", frozen=True, kw_only=True):
    version: int
    by: str
    clock: View | None
    offers: View
    due: float | None


class Undone(_Event, tag="undone", frozen=True, kw_only=True):
    """Moves were taken back (``moves``: mark and cell, the last played first)."""

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


class RematchOffered(_Event, tag="rematch_offered", frozen=True, kw_only=True):
    version: int
    by: str
    clock: View | None
    offers: View
    due: float | None


class NewGame(_Event, tag="new_game", frozen=True, kw_only=True):
    """The next game started: ``marks`` maps each old mark to its new one."""

    version: int
    game_number: int
    marks: Mapping[str, str]
    players: Sequence[View]
    board: str
    ply: Literal[0] = 0
    turn: str
    status: str
    started_at: float
    clock: View | None
    offers: View
    due: float | None


class Rated(_Event, tag="rated", frozen=True, kw_only=True):
    """The ratings a rated game changed (rooms.room.rated): ``rating_change`` by mark."""

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


def type_of(kind: type[Event]) -> str:
    """The type an event of class ``kind`` names on the wire (its tag)."""
    tag: str = kind.__struct_config__.tag  # type: ignore[assignment]
    return tag


def wire_keys(kind: type[Event]) -> tuple[str, ...]:
    """The keys of an event of class ``kind``, in the order they are sent: ``type``, then its
    fields (an optional one only while it is not None: ``optional_keys``)."""
    return ("type", *kind.__struct_fields__)


def optional_keys(kind: type[Event]) -> frozenset[str]:
    """The keys of ``kind`` that are left out while None."""
    if not kind.__struct_config__.omit_defaults:
        return frozenset()
    return frozenset(spec.name for spec in msgspec.structs.fields(kind) if spec.default is None)
