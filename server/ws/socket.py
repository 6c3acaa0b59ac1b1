"""The room's WebSocket endpoints: ``/ws/{room_id}`` for everyone, ``/ws/{room_id}/watch``
for spectators only. Both: the Origin check, the worker's connection limit
(server.guards.capacity: 1013 past it), then one Session.

The spectators' path speaks the same protocol; it exists so that a balancer, which sees the
URL and not the first message, can keep a room's players on one process (hashing the room
id) and spread its crowd over all of them (deploy/haproxy.cfg). A player's ``join`` there is
refused (``not_a_player``), so a client cannot silently undo that split."""

from __future__ import annotations

import logging

from starlette.websockets import WebSocket

from ..guards.origin import origin_allowed
from ..logs import connection_context
from ..state import AppState, app_state
from .close_codes import CloseCode
from .session import Session

__all__ = ["room_socket", "watch_socket"]

log = logging.getLogger("tictactoe.server")


async def room_socket(websocket: WebSocket) -> None:
    """``/ws/{room_id}``: players and spectators."""
    await _socket(websocket, watch_only=False)


async def watch_socket(websocket: WebSocket) -> None:
    """``/ws/{room_id}/watch``: spectators only."""
    await _socket(websocket, watch_only=True)


async def _socket(websocket: WebSocket, *, watch_only: bool) -> None:
    state = app_state(websocket.app)
    conn_id = state.presence.connection_id()
    # every line logged while serving this socket names its room and connection
    with connection_context(websocket.path_params["room_id"], conn_id):
        await _serve(websocket, state, conn_id, watch_only)


async def _serve(websocket: WebSocket, state: AppState, conn_id: str, watch_only: bool) -> None:
    origin = websocket.headers.get("origin")
    if not origin_allowed(origin, websocket.headers.get("host"), state.settings.allowed_origins):
        log.warning(
            "refused a WebSocket: origin %r is not allowed",
            origin[:100] if origin else origin,
            extra={"refusal": "origin", "status": 403},
        )
        await websocket.close(CloseCode.POLICY)  # before accept: the handshake gets a 403
        return
    if not state.connections.take():
        log.warning(
            "refused a WebSocket: %d connections open, the most this worker takes",
            state.connections.open,
            extra={"refusal": "full", "close_code": int(CloseCode.TRY_AGAIN_LATER)},
        )
        await websocket.accept()  # then a close code the client can back off on
        await websocket.close(CloseCode.TRY_AGAIN_LATER, "server full, try again later")
        return
    try:
        await websocket.accept()
        session = Session(
            websocket,
            websocket.path_params["room_id"],
            service=state.service,
            hub=state.hub,
            settings=state.settings,
            presence=state.presence,
            players=state.backend.players,
            desk=state.desk,
            lag=state.lag,
            conn_id=conn_id,
            watch_only=watch_only,
            heartbeats=state.heartbeats,
            bot_gate=state.bot_gate,
        )
        await session.run()
    finally:
        state.connections.release()
