"""The room WebSocket edge: the handshake, each socket's session, its connection's sends,
the table from lifecycle messages to room commands, the per-connection limits and the
close codes."""

from __future__ import annotations

from .close_codes import CloseCode
from .connection import Connection
from .socket import room_socket, watch_socket

__all__ = ["CloseCode", "Connection", "room_socket", "watch_socket"]
