"""The wire protocol (docs/protocol.md): messages parsed and built, the room actions as
one table (``actions``), and the room codec."""

from __future__ import annotations

from rooms.protocol.actions import ACTIONS, Action, ActionMessage, ack_version, command_for
from rooms.protocol.codec import decode_room, encode_room
from rooms.protocol.messages import (
    ENCODES,
    PROTOCOL_VERSION,
    RESERVED_TYPES,
    ClientType,
    ServerType,
    ack_message,
    dumps,
    error_message,
    event_version,
    move_ok_message,
    pong_message,
    state_message,
    welcome_message,
)
from rooms.protocol.parse import (
    JOIN_KEY_RULE,
    ChatMessage,
    ClientMessage,
    GuessMessage,
    JoinMessage,
    MoveMessage,
    PingMessage,
    SyncMessage,
    parse_message,
    valid_join_key,
)

__all__ = [
    "ACTIONS",
    "Action",
    "ActionMessage",
    "ChatMessage",
    "GuessMessage",
    "ClientMessage",
    "ClientType",
    "ENCODES",
    "JOIN_KEY_RULE",
    "JoinMessage",
    "MoveMessage",
    "PROTOCOL_VERSION",
    "PingMessage",
    "RESERVED_TYPES",
    "ServerType",
    "SyncMessage",
    "ack_message",
    "ack_version",
    "command_for",
    "decode_room",
    "dumps",
    "encode_room",
    "error_message",
    "event_version",
    "move_ok_message",
    "parse_message",
    "pong_message",
    "state_message",
    "valid_join_key",
    "welcome_message",
]
