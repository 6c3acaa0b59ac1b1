"""The wire protocol's names and the server's reply messages (docs/protocol.md).

``ClientType``, ``ServerType`` and ``EventType`` (rooms.room.events) are the registries of every
message type; ``ErrorCode`` (rooms.errors) is the registry of error codes. A test checks
that docs/protocol.md names every one of them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

import msgspec

from rooms.common.jsontext import dumps as _dumps
from rooms.common.jsontext import loads
from rooms.errors import ErrorCode
from rooms.room.commands import JoinReply, MoveReply
from rooms.room.events import Event

__all__ = [
    "ENCODES",
    "PROTOCOL_VERSION",
    "RESERVED_TYPES",
    "ClientType",
    "ServerType",
    "ack_message",
    "dumps",
    "error_message",
    "event_version",
    "move_ok_message",
    "pong_message",
    "state_message",
    "welcome_message",
]

PROTOCOL_VERSION = 1


class ClientType(StrEnum):
    JOIN = "join"
    MOVE = "move"
    SYNC = "sync"
    PING = "ping"
    RESIGN = "resign"
    ABORT = "abort"
    OFFER_DRAW = "offer_draw"
    ACCEPT_DRAW = "accept_draw"
    DECLINE_DRAW = "decline_draw"
    TAKEBACK = "takeback"
    ACCEPT_TAKEBACK = "accept_takeback"
    DECLINE_TAKEBACK = "decline_takeback"
    REMATCH = "rematch"
    CLAIM = "claim"
    CHAT = "chat"
    LEAVE = "leave"
    GUESS = "guess"


class ServerType(StrEnum):
    """Replies to one connection; events (rooms.room.events.EventType) go to every connection."""

    WELCOME = "welcome"
    STATE = "state"
    MOVE_OK = "move_ok"
    ACK = "ack"
    PONG = "pong"
    ERROR = "error"
    CHAT = "chat"
    """A chat line: sent to one audience (players or spectators), without a version."""
    GUESSES = "guesses"
    """The crowd's split after a move, to spectators only, without a version (rooms.guesses)."""


RESERVED_TYPES: frozenset[str] = frozenset()
"""Client types reserved for a later version (none now: the lifecycle names are in use)."""


ENCODES: Counter[str] = Counter()
"""Messages this process JSON-encoded, by ``type`` (served by ``GET /api/stats``). An event
is encoded once for all of its receivers, so per committed event this grows by one whatever
the number of receivers; tictactoe bench and tests/bench check it from the outside."""


_encode_event = msgspec.json.Encoder().encode


def dumps(message: dict[str, Any] | Event) -> str:
    """Compact JSON, the one encoding of every frame: a reply's dict (orjson, through
    rooms.common.jsontext), or an event's tag and fields in order (msgspec, whose text is the
    same compact JSON: tests/rooms/room/test_events_wire.py pins every type's)."""
    if isinstance(message, dict):
        ENCODES[message.get("type", "")] += 1
        return _dumps(message)
    ENCODES[message.type] += 1
    return _encode_event(message).decode()


def welcome_message(
    room_id: str,
    reply: JoinReply,
    state: dict[str, Any],
    missed: Sequence[dict[str, Any]] | None,
) -> dict[str, Any]:
    return {
        "type": ServerType.WELCOME.value,
        "protocol": PROTOCOL_VERSION,
        "room_id": room_id,
        "role": reply.role.value,
        "mark": reply.mark,
        "token": reply.token,
        "version": state["version"],
        "state": state,
        "missed": list(missed) if missed is not None else None,
    }


def state_message(state: dict[str, Any], ref: str | None = None) -> dict[str, Any]:
    return {"type": ServerType.STATE.value, "version": state["version"], "state": state, "ref": ref}


def move_ok_message(reply: MoveReply) -> dict[str, Any]:
    return {
        "type": ServerType.MOVE_OK.value,
        "move_id": reply.move_id,
        "version": reply.version,
        "duplicate": reply.duplicate,
    }


def pong_message(ref: str | None) -> dict[str, Any]:
    return {"type": ServerType.PONG.value, "ref": ref}


def ack_message(ref: str | None, version: int | None) -> dict[str, Any]:
    return {"type": ServerType.ACK.value, "ref": ref, "version": version}


def error_message(
    code: ErrorCode, message: str, ref: str | None = None, *, retry_after: float | None = None
) -> dict[str, Any]:
    error: dict[str, Any] = {
        "type": ServerType.ERROR.value,
        "code": code.value,
        "message": message,
        "ref": ref,
    }
    if retry_after is not None:
        error["retry_after"] = retry_after
    return error


def event_version(text: str) -> int:
    """The version of an encoded event (ValueError when the text is not one)."""
    data = loads(text)
    version = data.get("version") if isinstance(data, dict) else None
    if isinstance(version, bool) or not isinstance(version, int):
        raise ValueError(f"not an event: {text!r:.80}")
    return version
