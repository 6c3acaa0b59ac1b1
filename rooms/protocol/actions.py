"""The room actions a joined connection may send, as one table: each wire message, the fields
it carries and the room command it becomes (docs/protocol.md, "Lifecycle messages").

``parse_message`` reads an action's own fields through its entry (``Action.read``: the
message's JSON object in, the typed fields out, or a RoomError naming the bad one) and
``command_for`` builds its command for the connection that sent it. A new room action is
an entry here, its command and handler in rooms.room, and its lines in docs/protocol.md:
the server's edge (server.ws) handles every action the same way, by this table.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from core import MARKS
from rooms.errors import ErrorCode, RoomError
from rooms.protocol.messages import ClientType
from rooms.room.commands import (
    Abort,
    Answer,
    Claim,
    Command,
    Done,
    Leave,
    Offer,
    OfferKind,
    Rematch,
    Resign,
)
from rooms.room.events import Event

__all__ = ["ACTIONS", "Action", "ActionMessage", "ack_version", "command_for"]

Fields = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class ActionMessage:
    """A parsed action: its type, the ``id`` to echo, and its own fields (``Action.read``)."""

    kind: ClientType
    ref: str | None = None
    fields: Fields = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Action:
    """One action: how its fields are read from the message (``data``, with the ``ref`` a
    refusal echoes) and the command it becomes for a connection (``conn``, then the fields
    by name)."""

    command: Callable[..., Command]
    read: Callable[[dict[str, Any], str | None], Fields] = lambda data, ref: {}


def _claim(data: dict[str, Any], ref: str | None) -> Fields:
    """``result``: the win or a draw; ``mark``: whose win (in a game of 3 or 4 players)."""
    result = data.get("result")
    if not isinstance(result, str) or result not in {"win", "draw"}:  # a list is unhashable
        raise _bad(f'result must be "win" or "draw", got {result!r:.80}', ref)
    mark = data.get("mark")
    if mark is not None and (not isinstance(mark, str) or mark not in MARKS):
        raise _bad(f"mark must be one of {', '.join(MARKS)}, got {mark!r:.80}", ref)
    return {"draw": result == "draw", "mark": mark}


def _bad(message: str, ref: str | None) -> RoomError:
    return RoomError(ErrorCode.BAD_MESSAGE, message, ref=ref)


ACTIONS: Mapping[ClientType, Action] = MappingProxyType(
    {
        ClientType.RESIGN: Action(Resign),
        ClientType.ABORT: Action(Abort),
        ClientType.OFFER_DRAW: Action(lambda conn: Offer(conn, OfferKind.DRAW)),
        ClientType.ACCEPT_DRAW: Action(lambda conn: Answer(conn, OfferKind.DRAW, True)),
        ClientType.DECLINE_DRAW: Action(lambda conn: Answer(conn, OfferKind.DRAW, False)),
        ClientType.TAKEBACK: Action(lambda conn: Offer(conn, OfferKind.TAKEBACK)),
        ClientType.ACCEPT_TAKEBACK: Action(lambda conn: Answer(conn, OfferKind.TAKEBACK, True)),
        ClientType.DECLINE_TAKEBACK: Action(lambda conn: Answer(conn, OfferKind.TAKEBACK, False)),
        ClientType.REMATCH: Action(Rematch),
        ClientType.CLAIM: Action(
            lambda conn, draw, mark: Claim(conn, draw=draw, mark=mark), read=_claim
        ),
        ClientType.LEAVE: Action(lambda conn: Leave(conn, deliberate=True)),
    }
)
"""Every room action by its message type."""


def command_for(message: ActionMessage, conn: str) -> Command:
    """The room command ``message`` asks for on behalf of the connection ``conn``."""
    return ACTIONS[message.kind].command(conn, **message.fields)


def ack_version(reply: object, event: Event | None) -> int | None:
    """The version an action's ``ack`` names: its ``Done`` reply's, else the one its event
    brought the room to (None: it changed nothing)."""
    if isinstance(reply, Done):
        return reply.version
    return event.version if event is not None else None
