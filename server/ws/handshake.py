"""The handshake every WebSocket endpoint shares: the Origin check, then one of the worker's
connection slots (server.guards.capacity), then the accept.

A foreign Origin is closed before the accept, so the client's handshake gets a 403; a socket
past the connection limit is accepted and closed at once with 1013, a code the client can
back off on. A socket let in holds its slot until the endpoint is done with it."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator

from starlette.websockets import WebSocket

from ..guards.origin import origin_allowed
from ..state import AppState
from .close_codes import CloseCode

__all__ = ["admitted"]

log = logging.getLogger("tictactoe.server")


@contextlib.asynccontextmanager
async def admitted(
    websocket: WebSocket, state: AppState, *, log_refusals: bool = False
) -> AsyncIterator[bool]:
    """Whether ``websocket`` was let in and accepted; when False it is closed already and the
    endpoint returns. ``log_refusals`` logs each refusal once, at WARNING (the room sockets,
    whose refusals the operators watch)."""
    origin = websocket.headers.get("origin")
    if not origin_allowed(origin, websocket.headers.get("host"), state.settings.allowed_origins):
        if log_refusals:
            log.warning(
                "refused a WebSocket: origin %r is not allowed",
                origin[:100] if origin else origin,
                extra={"refusal": "origin", "status": 403},
            )
        await websocket.close(CloseCode.POLICY)  # before accept: the handshake gets a 403
        yield False
        return
    if not state.connections.take():
        if log_refusals:
            log.warning(
                "refused a WebSocket: %d connections open, the most this worker takes",
                state.connections.open,
                extra={"refusal": "full", "close_code": int(CloseCode.TRY_AGAIN_LATER)},
            )
        await websocket.accept()  # then a close code the client can back off on
        await websocket.close(CloseCode.TRY_AGAIN_LATER, "server full, try again later")
        yield False
        return
    try:
        await websocket.accept()
        yield True
    finally:
        state.connections.release()
