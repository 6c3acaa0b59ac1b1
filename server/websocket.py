"""The WebSocket endpoint ``/ws/{room_id}``: the Origin check, then one Session."""

from __future__ import annotations

import logging

from starlette.websockets import WebSocket

from .close_codes import CloseCode
from .origin import origin_allowed
from .session import Session
from .state import app_state

__all__ = ["room_socket"]

log = logging.getLogger("tictactoe.server")


async def room_socket(websocket: WebSocket) -> None:
    state = app_state(websocket.app)
    origin = websocket.headers.get("origin")
    if not origin_allowed(origin, websocket.headers.get("host"), state.settings.allowed_origins):
        log.info("refused a WebSocket from origin %r", origin[:100] if origin else origin)
        await websocket.close(CloseCode.POLICY)  # before accept: the handshake gets a 403
        return
    await websocket.accept()
    session = Session(
        websocket,
        websocket.path_params["room_id"],
        service=state.service,
        hub=state.hub,
        settings=state.settings,
        presence=state.presence,
    )
    await session.run()
