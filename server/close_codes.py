"""WebSocket close codes the server uses (docs/protocol.md, "Close codes")."""

from __future__ import annotations

from enum import IntEnum

__all__ = ["CloseCode"]


class CloseCode(IntEnum):
    NORMAL = 1000
    GOING_AWAY = 1001
    UNSUPPORTED_DATA = 1003
    POLICY = 1008
    TOO_BIG = 1009
    INTERNAL_ERROR = 1011
    JOIN_TIMEOUT = 4001
    ROOM_NOT_FOUND = 4004
    FLOOD = 4008
    TOO_SLOW = 4009
