"""The ASGI ``send`` of a WebSocket without Starlette's wrappers around it.

Past its ``accept``, a connection's frames need none of the checks that
``WebSocket.send_text``, ``WebSocket.send`` and the exception handler's ``sender`` make
(they guard the handshake and the close, which still go through Starlette): three
coroutines per frame. ``RawSend``, the outermost middleware, keeps the server's ``send``
in the scope; ``server_send`` finds it there and ``text_frame`` sends a text frame with it.
Without the middleware ``server_send`` answers None and every frame takes Starlette's path.
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any, cast

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["RawSend", "server_send", "text_frame"]

SCOPE_KEY = "tictactoe.raw_send"


class RawSend:
    """ASGI middleware: a WebSocket scope carries the server's ``send`` under SCOPE_KEY."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        scope[SCOPE_KEY] = send
        try:
            await self.app(scope, receive, send)
        finally:
            # uvicorn's protocol holds the scope, and ``send`` is a bound method of that
            # protocol: left in, the pair is a reference cycle, and a closed connection's
            # protocol, transport and buffers would wait for a full collection instead of
            # being freed by reference counting when the connection ends.
            # pop: a KeyError here would hide whatever the app raised
            scope.pop(SCOPE_KEY, None)


def server_send(websocket: Any) -> Send | None:
    """The server's own ``send`` for ``websocket`` (None without ``RawSend``: the fastpath
    is off, or a test's stand-in socket, whose ``send_text`` is used instead)."""
    scope = getattr(websocket, "scope", None)
    return scope.get(SCOPE_KEY) if isinstance(scope, dict) else None


def text_frame(send: Send, text: str) -> Coroutine[Any, Any, None]:
    """Send one text frame with the server's ``send`` (a coroutine to drive or await)."""
    # ASGI servers' send is an ``async def`` (uvicorn's is): a coroutine
    return cast(Coroutine[Any, Any, None], send({"type": "websocket.send", "text": text}))
