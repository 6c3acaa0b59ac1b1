"""Client messages from text frames, validated field by field (docs/protocol.md).

``parse_message`` returns a typed message or raises a RoomError with a stable code
(``too_large``, ``bad_message``, ``unknown_type``, ``unsupported_protocol``,
``malformed_move``) and, when the frame named one, the ``ref`` to echo.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from typing import Any

from core import MalformedMove, MoveRequest, parse_move
from rooms.common.jsontext import loads
from rooms.common.names import MAX_NAME, clean_name
from rooms.errors import ErrorCode, RoomError
from rooms.players.record import Credentials, credentials_of
from rooms.protocol.actions import ACTIONS, ActionMessage
from rooms.protocol.messages import PROTOCOL_VERSION, RESERVED_TYPES, ClientType
from rooms.room.commands import Role

__all__ = [
    "JOIN_KEY_RULE",
    "MAX_CHAT",
    "MAX_ID",
    "MAX_NAME",
    "valid_join_key",
    "ActionMessage",
    "ChatMessage",
    "ClientMessage",
    "GuessMessage",
    "JoinMessage",
    "MoveMessage",
    "PingMessage",
    "SyncMessage",
    "parse_message",
]

MAX_CHAT = 200
MAX_ID = 64
MAX_TOKEN = 128
_JOIN_KEY = re.compile(r"[A-Za-z0-9_-]{22,128}")
"""A join key: 22 to 128 URL-safe characters (``secrets.token_urlsafe(16)`` is 22, 128 bits)."""
JOIN_KEY_RULE = "a join_key must be 22 to 128 characters of A-Z a-z 0-9 _ -"
_CONTROL = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
_ZWJ = "\u200d"  # joins emoji sequences: a format character, but harmless in chat
_CLIENT_TYPES = frozenset(kind.value for kind in ClientType)
_ROLES = frozenset(role.value for role in Role)
_MOVE: str = ClientType.MOVE.value
"""Looked up once: every move is parsed here, and an enum member costs a lookup per use."""


@dataclass(frozen=True, slots=True)
class JoinMessage:
    role: Role
    name: str | None = None
    token: str | None = None
    last_version: int | None = None
    ref: str | None = None
    join_key: str | None = None
    player: Credentials | None = None
    """The guest identity of a seat-taking join (None for spectators and resumes, which
    ignore it)."""
    bot_token: str | None = None
    """A bot account's API token (rooms.bots): the bot takes its own seat with it."""

    def __repr__(self) -> str:  # never print a token, a join key or a secret
        token = "<token>" if self.token is not None else None
        key = "<key>" if self.join_key is not None else None
        bot = "<bot token>" if self.bot_token is not None else None
        return (
            f"JoinMessage(role={self.role.value!r}, name={self.name!r}, token={token}, "
            f"join_key={key}, player={self.player!r}, bot_token={bot}, "
            f"last_version={self.last_version!r})"
        )


@dataclass(frozen=True, slots=True)
class MoveMessage:
    request: MoveRequest
    version: int
    move_id: str

    @property
    def ref(self) -> str:
        return self.move_id


@dataclass(frozen=True, slots=True)
class SyncMessage:
    ref: str | None = None


@dataclass(frozen=True, slots=True)
class PingMessage:
    ref: str | None = None


@dataclass(frozen=True, slots=True)
class ChatMessage:
    text: str
    ref: str | None = None


@dataclass(frozen=True, slots=True)
class GuessMessage:
    """A spectator's guess of the next move (rooms.guesses), made at ``version``."""

    request: MoveRequest
    version: int
    ref: str | None = None


ClientMessage = (
    JoinMessage
    | MoveMessage
    | SyncMessage
    | PingMessage
    | ActionMessage
    | ChatMessage
    | GuessMessage
)


def _encodable(value: str) -> bool:
    """False for strings with lone surrogates (``"\\ud800"`` in JSON): they cannot be sent
    back as UTF-8, so they are refused before they reach a room or a reply."""
    if value.isascii():  # the common case, and cheaper than the encoding
        return True
    try:
        value.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _bad(message: str, ref: str | None) -> RoomError:
    return RoomError(ErrorCode.BAD_MESSAGE, message, ref=ref)


def _id(data: dict[str, Any], name: str, ref: str | None, *, required: bool) -> str | None:
    value = data.get(name)
    if value is None:
        if required:
            raise _bad(f"{name} is required", ref)
        return None
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_ID or not _encodable(value):
        raise _bad(f"{name} must be a string of 1 to {MAX_ID} characters, got {value!r:.80}", ref)
    return value


def _version(data: dict[str, Any], name: str, ref: str | None, *, required: bool) -> int | None:
    value = data.get(name)
    if value is None:
        if required:
            raise _bad(f"{name} is required", ref)
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _bad(f"{name} must be a whole number of 0 or more, got {value!r:.80}", ref)
    return value


def _name(value: object, ref: str | None) -> str | None:
    if value is None:
        return None
    try:
        return clean_name(value)
    except ValueError as exc:
        raise _bad(str(exc), ref) from None


def valid_join_key(value: object) -> bool:
    """Whether ``value`` is a join key (``JOIN_KEY_RULE``), for the join and quick play."""
    return isinstance(value, str) and _JOIN_KEY.fullmatch(value) is not None


def _join_key(data: dict[str, Any], role: Role, ref: str | None) -> str | None:
    """The join key of a player's seat-taking join (docs/protocol.md, ``join`` and "Resume")."""
    value = data.get("join_key")
    if value is None:
        return None
    if not valid_join_key(value):
        raise _bad(f"{JOIN_KEY_RULE}, got {value!r:.80}", ref)
    if role is Role.SPECTATOR:
        raise _bad("spectators do not send a join_key", ref)
    if data.get("token") is not None:
        raise _bad("a join sends a token or a join_key, not both", ref)
    return str(value)


def _player(data: dict[str, Any], ref: str | None) -> Credentials | None:
    """The ``player`` of a join, a guest identity's id and secret (shape only)."""
    value = data.get("player")
    if value is None:
        return None
    try:
        return credentials_of(value)
    except ValueError as exc:
        raise _bad(str(exc), ref) from None


def _join(data: dict[str, Any], ref: str | None) -> JoinMessage:
    protocol = data.get("protocol")
    if protocol is not None and (
        isinstance(protocol, bool) or not isinstance(protocol, int) or protocol != PROTOCOL_VERSION
    ):
        raise RoomError(
            ErrorCode.UNSUPPORTED_PROTOCOL,
            f"this server speaks protocol {PROTOCOL_VERSION}, not {protocol!r:.80}",
            ref=ref,
        )
    role_name = data.get("as")
    if not isinstance(role_name, str) or role_name not in _ROLES:  # a list is unhashable
        raise _bad(f'as must be "player" or "spectator", got {role_name!r:.80}', ref)
    token = data.get("token")
    if token is not None and (
        not isinstance(token, str) or not 1 <= len(token) <= MAX_TOKEN or not _encodable(token)
    ):
        raise _bad(f"token must be a string of 1 to {MAX_TOKEN} characters", ref)
    role = Role(role_name)
    player = _player(data, ref)
    bot_token = _bot_token(data, role, ref)
    return JoinMessage(
        role=role,
        name=_name(data.get("name"), ref),
        token=token,
        last_version=_version(data, "last_version", ref, required=False),
        ref=ref,
        join_key=_join_key(data, role, ref),
        # only a seat-taking join links a seat: spectators and resumes ignore it
        player=player if role is Role.PLAYER and token is None else None,
        bot_token=bot_token,
    )


def _bot_token(data: dict[str, Any], role: Role, ref: str | None) -> str | None:
    """A bot's join: its API token, alone (no seat token, join key nor ``player``)."""
    value = data.get("bot_token")
    if value is None:
        return None
    if not isinstance(value, str) or not 1 <= len(value) <= MAX_TOKEN or not value.isascii():
        raise _bad(f"bot_token must be a string of 1 to {MAX_TOKEN} characters", ref)
    if role is Role.SPECTATOR:
        raise _bad("spectators do not send a bot_token", ref)
    if any(data.get(name) is not None for name in ("token", "join_key", "player")):
        raise _bad("a bot's join sends its bot_token alone (no token, join_key nor player)", ref)
    return value


def _move(data: dict[str, Any]) -> MoveMessage:
    move_id = _id(data, "move_id", None, required=True)
    assert move_id is not None
    version = _version(data, "version", move_id, required=True)
    assert version is not None
    try:
        request = parse_move(data)
    except MalformedMove as exc:
        raise RoomError(ErrorCode.MALFORMED_MOVE, exc.message, ref=move_id) from exc
    return MoveMessage(request=request, version=version, move_id=move_id)


def _guess(data: dict[str, Any], ref: str | None) -> GuessMessage:
    version = _version(data, "version", ref, required=True)
    assert version is not None
    try:
        request = parse_move(data)
    except MalformedMove as exc:
        raise RoomError(ErrorCode.MALFORMED_MOVE, exc.message, ref=ref) from exc
    return GuessMessage(request=request, version=version, ref=ref)


def _chat(data: dict[str, Any], ref: str | None) -> ChatMessage:
    value = data.get("text")
    if not isinstance(value, str) or not _encodable(value):
        raise _bad(f"text must be a string, got {value!r:.80}", ref)
    text = value.strip()
    if len(text) > MAX_CHAT:
        raise RoomError(
            ErrorCode.CHAT_TOO_LONG,
            f"a chat line may be at most {MAX_CHAT} characters, got {len(text)}",
            ref=ref,
        )
    if not text:
        raise _bad("text must not be empty", ref)
    if any(ch != _ZWJ and unicodedata.category(ch) in _CONTROL for ch in text):
        raise _bad(f"text must not contain control characters, got {value!r:.80}", ref)
    return ChatMessage(text, ref)


_SCALARS = frozenset({str, int, bool, type(None)})
"""The types of every field of a well-formed message (whole numbers, strings, flags)."""


def _json(text: str) -> Any:
    """``json.loads(text)``, exactly, through orjson (rooms.common.jsontext) in the common case.

    orjson decodes much faster and agrees with the standard library on strings, whole numbers
    within 64 bits, flags and null: every field of a well-formed message. It differs beyond that
    (an integer past 64 bits becomes a float), so anything else at the top level (a fraction, a
    list, an object) is decoded again by the standard library, and errors quote the same values."""
    data = loads(text)
    if isinstance(data, dict):
        for value in data.values():
            if type(value) not in _SCALARS:
                return json.loads(text)
    return data


def parse_message(text: str, *, max_bytes: int) -> ClientMessage:
    """A typed client message from one text frame; RoomError (with ``ref``) when refused."""
    if len(text) > max_bytes or (len(text) * 4 > max_bytes and len(text.encode()) > max_bytes):
        raise RoomError(ErrorCode.TOO_LARGE, f"a message may be at most {max_bytes} bytes")
    try:
        data: Any = _json(text)
    except (ValueError, RecursionError):
        raise _bad(f"a message must be one JSON object, got {text!r:.80}", None) from None
    if not isinstance(data, dict):
        raise _bad(f"a message must be a JSON object, got {text!r:.80}", None)
    kind = data.get("type")
    raw_ref = data.get("move_id") if kind == _MOVE else data.get("id")
    ref = (
        raw_ref
        if isinstance(raw_ref, str) and 1 <= len(raw_ref) <= MAX_ID and _encodable(raw_ref)
        else None
    )
    if not isinstance(kind, str):
        raise _bad(f"a message needs a string type, got {kind!r:.80}", ref)
    if kind not in _CLIENT_TYPES:
        reserved = " (reserved for a later version)" if kind in RESERVED_TYPES else ""
        raise RoomError(
            ErrorCode.UNKNOWN_TYPE, f"unknown message type {kind!r:.80}{reserved}", ref=ref
        )
    if kind == _MOVE:
        return _move(data)
    ref = _id(data, "id", ref, required=False)
    if kind == ClientType.JOIN:
        return _join(data, ref)
    if kind == ClientType.SYNC:
        return SyncMessage(ref)
    if kind == ClientType.PING:
        return PingMessage(ref)
    if kind == ClientType.CHAT:
        return _chat(data, ref)
    if kind == ClientType.GUESS:
        return _guess(data, ref)
    action = ClientType(kind)  # every other type is a room action (rooms.protocol.actions)
    return ActionMessage(action, ref, ACTIONS[action].read(data, ref))
