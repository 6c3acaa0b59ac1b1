"""WebSocket close codes the server uses (docs/protocol.md, "Close codes")."""

from __future__ import annotations

from enum import IntEnum

__all__ = ["CloseCode"]


class CloseCode(IntEnum):
    NORMAL = 1000
    UNSUPPORTED_DATA = 1003
    INVALID_DATA = 1007  # a text frame that is not valid UTF-8
    POLICY = 1008
    TOO_BIG = 1009
    INTERNAL_ERROR = 1011
    SERVICE_RESTART = 1012  # sent by uvicorn to every open WebSocket when it shuts down
    TRY_AGAIN_LATER = 1013  # the worker holds --max-connections WebSockets already
    JOIN_TIMEOUT = 4001
    ROOM_NOT_FOUND = 4004
    FLOOD = 4008
    TOO_SLOW = 4009
    BOT_TOKEN_REFUSED = 4401  # a bot's token is not valid (any more): rotated or revoked
