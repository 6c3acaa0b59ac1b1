"""The server's own counts at the edge: connections by role, messages received by type,
errors by code, closes by code, send-queue drops and the collector's pauses.

Called by the session, the connection, the HTTP error answer and the collector. The label
children are resolved once and kept here, so a message costs one dict lookup and one
increment.
"""

from __future__ import annotations

from typing import Any

from rooms import ErrorCode
from rooms.protocol import (
    ActionMessage,
    ChatMessage,
    ClientMessage,
    GuessMessage,
    JoinMessage,
    MoveMessage,
    PingMessage,
    SyncMessage,
)

from .buffered import BufferedCounter
from .families import CLOSES, COLLECTOR_PAUSE, CONNECTIONS, ERRORS, MESSAGES, SEND_QUEUE_DROPS

__all__ = [
    "closed",
    "collector_pause",
    "error",
    "joined",
    "left",
    "message_type",
    "received",
    "send_queue_drop",
]

_TYPES: dict[type, str] = {
    JoinMessage: "join",
    MoveMessage: "move",
    SyncMessage: "sync",
    PingMessage: "ping",
    ChatMessage: "chat",
    GuessMessage: "guess",
}
_RECEIVED: dict[Any, Any] = {}  # a message class (an action's kind) -> its counter child
_ERRORS: dict[tuple[ErrorCode, str], Any] = {}
_CLOSES: dict[int | None, Any] = {}
_ROLES = {True: CONNECTIONS.labels("player"), False: CONNECTIONS.labels("spectator")}
_PAUSES: dict[str, Any] = {}


def message_type(message: ClientMessage) -> str:
    """A parsed client message's protocol ``type`` (``move``, ``join``, ``resign``...)."""
    if isinstance(message, ActionMessage):
        return message.kind.value
    return _TYPES[type(message)]


def received(message: ClientMessage) -> None:
    """A client message parsed (counted by its protocol ``type``; buffered, as one comes
    with every move: server.metrics.buffered)."""
    key: Any = message.kind if isinstance(message, ActionMessage) else type(message)
    child = _RECEIVED.get(key)
    if child is None:
        child = _RECEIVED[key] = BufferedCounter(MESSAGES.labels(message_type(message)))
    child.inc()


def error(code: ErrorCode, transport: str) -> None:
    """An error answer with ``code`` sent over ``transport`` (``websocket`` or ``http``)."""
    child = _ERRORS.get((code, transport))
    if child is None:
        child = _ERRORS[code, transport] = ERRORS.labels(code.value, transport)
    child.inc()


def closed(code: int | None) -> None:
    """A session ended with close ``code`` (None: the peer closed or went away first)."""
    child = _CLOSES.get(code)
    if child is None:
        child = _CLOSES[code] = CLOSES.labels("peer" if code is None else str(int(code)))
    child.inc()


def joined(player: bool) -> None:
    _ROLES[player].inc()


def left(player: bool) -> None:
    _ROLES[player].dec()


def send_queue_drop() -> None:
    SEND_QUEUE_DROPS.inc()


def collector_pause(kind: str, seconds: float) -> None:
    """The collector held the loop ``seconds`` for a ``freeze`` or a ``full`` collection."""
    child = _PAUSES.get(kind)
    if child is None:
        child = _PAUSES[kind] = COLLECTOR_PAUSE.labels(kind)
    child.observe(seconds)
