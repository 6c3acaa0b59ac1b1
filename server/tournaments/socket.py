"""``/ws/t/{tournament_id}``: a tournament's live state, on connect and on every change.

The socket checks the Origin and the worker's connection limit as a room's does
(``server.ws.handshake``), sends the tournament's view and then follows it
(``server.tournaments.feeds``); an unknown tournament gets a ``not_found`` error and close
code 4004.
"""

from __future__ import annotations

import contextlib
import json

from starlette.websockets import WebSocket, WebSocketDisconnect

from rooms import ErrorCode, RoomError

from ..state import app_state
from ..ws.close_codes import CloseCode
from ..ws.handshake import admitted

__all__ = ["tournament_socket"]


async def tournament_socket(websocket: WebSocket) -> None:
    state = app_state(websocket.app)
    async with admitted(websocket, state) as let_in:
        if not let_in:
            return
        try:
            record = await state.tournaments.get(websocket.path_params["tournament_id"])
        except RoomError as exc:
            await websocket.send_text(
                json.dumps({"type": "error", "code": exc.code.value, "message": exc.message})
            )
            close = CloseCode.ROOM_NOT_FOUND if exc.code is ErrorCode.NOT_FOUND else 1011
            await websocket.close(close)
            return
        with contextlib.suppress(WebSocketDisconnect, RuntimeError):
            await state.feeds.follow(
                websocket, record, websocket.query_params.get("player"), state.heartbeats
            )
