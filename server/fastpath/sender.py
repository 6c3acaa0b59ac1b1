"""``fast_sender(websocket)``: the one seam between a connection and the fastpath.

A ``FastSender`` sends a connection's text frames past Starlette: straight to the
transport when uvicorn would not wait (``direct_send``), else through the server's own
ASGI ``send`` (``raw_send``). ``fast_sender`` answers None when the app runs without
``RawSend`` (``--no-fastpath``, or a test's stand-in socket): the connection then sends
every frame with Starlette's ``websocket.send_text``. Either way the bytes on the wire and
their order are the same.
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any

from starlette.types import Send

from .direct_send import close_now, protocol_of
from .raw_send import server_send, text_frame

__all__ = ["FastSender", "fast_sender"]


class FastSender:
    """One connection's frames past Starlette (see the module)."""

    __slots__ = ("protocol", "send")

    def __init__(self, send: Send) -> None:
        self.send = send
        self.protocol = protocol_of(send)
        """uvicorn's sans-I/O protocol behind ``send`` (None under another server: every
        frame takes ``send``)."""

    def close_now(self, code: int, reason: str, timeout: float) -> bool:
        """Queue the close frame behind the frames written, even on a paused socket (see
        ``direct_send.close_now``); False when the caller must close through Starlette."""
        protocol = self.protocol
        return protocol is not None and close_now(protocol, code, reason, timeout)

    def frame(self, text: str) -> Coroutine[Any, Any, None]:
        """Send one text frame with the server's ``send`` (a coroutine to drive or await)."""
        return text_frame(self.send, text)


def fast_sender(websocket: Any) -> FastSender | None:
    """The fastpath sender of ``websocket``, or None when its scope has no server ``send``
    (no ``RawSend`` middleware: the plain path)."""
    send = server_send(websocket)
    return FastSender(send) if send is not None else None
