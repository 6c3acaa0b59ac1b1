"""The room's WebSocket endpoints: ``/ws/{room_id}`` for everyone, ``/ws/{room_id}/watch``
for spectators only. Both: the handshake (server.ws.handshake: the Origin check, the worker's
connection limit, 1013 past it), then one Session.

The spectators' path speaks the same protocol; it exists so that a balancer, which sees the
URL and not the first message, can keep a room's players on one process (hashing the room
id) and spread its crowd over all of them (deploy/haproxy.cfg). A player's ``join`` there is
refused (``not_a_player``), so a client cannot silently undo that split."""

from __future__ import annotations

from starlette.websockets import WebSocket

from ..logs import connection_context
from ..state import AppState, app_state
from .handshake import admitted
from .session import Session

__all__ = ["room_socket", "watch_socket"]


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
    async with admitted(websocket, state, log_refusals=True) as let_in:
        if not let_in:
            return
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
