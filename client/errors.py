"""The client library's errors: one root, ``ClientError``, and two kinds below it.

``Refused`` is the server's typed answer (its stable ``code``, docs/protocol.md "Error
codes"): the room is unchanged. It is also a ``core.GameError``, so that a game loop which
shows a local bad move and asks again treats a move the server refused the same way.
``Disconnected`` means the server cannot be reached, or closed the connection for good.
"""

from __future__ import annotations

from typing import Any

from core import GameError

__all__ = ["ClientError", "Disconnected", "Refused"]


class ClientError(Exception):
    """The root of what the client library raises."""


class Refused(GameError, ClientError):
    """The server refused a command; ``code`` is its stable error code, ``reply`` the whole
    ``error`` message (``retry_after``, ``ref``...) when it came over the socket."""

    def __init__(self, code: str, message: str, reply: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.reply: dict[str, Any] = reply if reply is not None else {}
        self.trail: list[str] = []
        """What the client sent and received last (client.aio), to tell how it came to this."""


class Disconnected(ClientError):
    """The server cannot be reached or closed the connection for good."""
