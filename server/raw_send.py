"""The ASGI ``send`` of a WebSocket without Starlette's wrappers around it.

Every frame a worker writes used to pass through ``WebSocket.send_text``,
``WebSocket.send`` and the exception handler's ``sender`` before uvicorn's own ``send``:
three coroutines per frame that check nothing a connection past its ``accept`` needs (the
state checks guard the handshake and the close, which still go through Starlette).
``RawSend``, the outermost middleware, keeps the server's ``send`` in the scope;
``frame_sender`` sends text frames with it, or with ``send_text`` when there is none (a
test's stand-in socket).
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine
from typing import Any, cast

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["RawSend", "frame_sender"]

SCOPE_KEY = "tictactoe.raw_send"


class RawSend:
    """ASGI middleware: a WebSocket scope carries the server's ``send`` under SCOPE_KEY."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            scope[SCOPE_KEY] = send
        await self.app(scope, receive, send)


def frame_sender(websocket: Any) -> Callable[[str], Coroutine[Any, Any, None]]:
    """A function that sends one text frame on ``websocket`` (a coroutine to await)."""
    scope = getattr(websocket, "scope", None)
    raw: Send | None = scope.get(SCOPE_KEY) if isinstance(scope, dict) else None
    if raw is None:
        send_text: Callable[[str], Coroutine[Any, Any, None]] = websocket.send_text
        return send_text

    def send_text_frame(text: str) -> Coroutine[Any, Any, None]:
        # ASGI servers' send is an ``async def`` (uvicorn's is): a coroutine to drive
        return cast(Coroutine[Any, Any, None], raw({"type": "websocket.send", "text": text}))

    return send_text_frame
