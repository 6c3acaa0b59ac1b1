"""The bot socket's messages (docs/protocol.md, "The bot socket"), parsed and built.

A bot sends ``hello`` (its token, first), ``accept`` and ``decline`` (a challenge) and
``ping``; the server sends ``bot_welcome``, ``challenge``, ``seat``, ``ack``, ``pong`` and
``error``. Every client message may carry an ``id``, echoed as ``ref`` in its answer. The
games themselves are played on the room socket (``/ws/{room_id}``), with the bot's token in
the ``join``: one protocol for people and bots.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from rooms import ErrorCode, RoomError
from rooms.bots import MAX_BOT_TOKEN
from rooms.protocol import error_message

__all__ = ["BotClientType", "BotMessage", "BotServerType", "error", "parse_bot_message"]

_MAX_ID = 64


class BotClientType(StrEnum):
    HELLO = "hello"
    ACCEPT = "accept"
    DECLINE = "decline"
    PING = "ping"


class BotServerType(StrEnum):
    BOT_WELCOME = "bot_welcome"
    CHALLENGE = "challenge"
    SEAT = "seat"
    ACK = "ack"
    PONG = "pong"
    ERROR = "error"


@dataclass(frozen=True, slots=True)
class BotMessage:
    kind: BotClientType
    ref: str | None = None
    token: str | None = None
    challenge_id: str | None = None

    def __repr__(self) -> str:  # never print a token
        token = "<token>" if self.token is not None else None
        return (
            f"BotMessage(kind={self.kind.value!r}, ref={self.ref!r}, token={token}, "
            f"challenge_id={self.challenge_id!r})"
        )


def _bad(message: str, ref: str | None) -> RoomError:
    return RoomError(ErrorCode.BAD_MESSAGE, message, ref=ref)


def _text(data: dict[str, Any], name: str, most: int, ref: str | None) -> str:
    value = data.get(name)
    if not isinstance(value, str) or not 1 <= len(value) <= most or not value.isascii():
        raise _bad(f"{name} must be a string of 1 to {most} characters", ref)
    return value


def parse_bot_message(text: str, *, max_bytes: int) -> BotMessage:
    """A bot socket message from one text frame; RoomError with a stable code when refused."""
    if len(text.encode()) > max_bytes:
        raise RoomError(ErrorCode.TOO_LARGE, f"a message may be at most {max_bytes} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise _bad(f"a message must be one JSON object, got {text!r:.80}", None) from None
    if not isinstance(data, dict):
        raise _bad(f"a message must be a JSON object, got {text!r:.80}", None)
    raw_ref = data.get("id")
    ref = raw_ref if isinstance(raw_ref, str) and 1 <= len(raw_ref) <= _MAX_ID else None
    if raw_ref is not None and ref is None:
        raise _bad(f"id must be a string of 1 to {_MAX_ID} characters", None)
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in BotClientType.__members__.values():
        raise RoomError(
            ErrorCode.UNKNOWN_TYPE, f"unknown bot socket message type {kind!r:.80}", ref=ref
        )
    message_kind = BotClientType(kind)
    if message_kind is BotClientType.HELLO:
        return BotMessage(message_kind, ref, token=_text(data, "token", MAX_BOT_TOKEN, ref))
    if message_kind in (BotClientType.ACCEPT, BotClientType.DECLINE):
        return BotMessage(message_kind, ref, challenge_id=_text(data, "challenge_id", _MAX_ID, ref))
    return BotMessage(message_kind, ref)


def error(exc: RoomError, ref: str | None) -> str:
    """The room socket's ``error`` (rooms.protocol), with ``field`` naming a ``bot_limit``'s
    limit."""
    message = error_message(exc.code, exc.message, exc.ref or ref, retry_after=exc.retry_after)
    if exc.field is not None:
        message["field"] = exc.field
    return json.dumps(message)
