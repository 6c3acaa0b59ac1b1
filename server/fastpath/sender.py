"""``sender_for(websocket)``: the one seam between a connection and how its frames leave.

A connection (server.ws.connection) hands every text to its ``Sender`` and knows nothing
of what is behind it:

- ``start(text)`` sends one frame on the caller's turn: None when it is sent, else what is
  left to await because the socket makes the sender wait (the caller's writer task awaits
  it). It raises what the send raises when the peer went away.
- ``write_all(texts)`` writes several frames in one write when the socket takes them at
  once, else writes nothing and answers False (the caller then starts them one by one).
- ``frame(text)`` is one frame's send as a coroutine, for a writer task draining a queue.
- ``close_now(code, reason, timeout)`` queues the close frame behind what is written even
  on a paused socket, or answers False (the caller closes through Starlette).

Two senders put the same bytes on the wire in the same order. ``FastSender`` (the app runs
with ``RawSend``, which keeps the server's ASGI ``send`` in the scope) writes a frame
framed once for all its receivers straight to uvicorn's transport when uvicorn's own send
would not wait (``direct_send``), else uses the server's ``send`` past Starlette
(``raw_send``). ``PlainSender`` (``--no-fastpath``, another server, a test's stand-in
socket) uses Starlette's ``websocket.send_text``.
"""

from __future__ import annotations

from collections.abc import Awaitable, Coroutine, Generator
from typing import Any, Protocol

from starlette.types import Send

from .direct_send import close_now, frame_of, protocol_of, transport_ready
from .raw_send import server_send, text_frame

__all__ = ["FastSender", "PlainSender", "Sender", "sender_for"]


class Sender(Protocol):
    """How one connection's frames leave (see the module)."""

    def start(self, text: str) -> Awaitable[None] | None: ...

    def write_all(self, texts: list[str]) -> bool: ...

    def frame(self, text: str) -> Coroutine[Any, Any, None]: ...

    def close_now(self, code: int, reason: str, timeout: float) -> bool: ...


class FastSender:
    """One connection's frames past Starlette (see the module)."""

    __slots__ = ("protocol", "send")

    def __init__(self, send: Send) -> None:
        self.send = send
        self.protocol = protocol_of(send)
        """uvicorn's sans-I/O protocol behind ``send`` (None under another server: every
        frame takes ``send``)."""

    def start(self, text: str) -> Awaitable[None] | None:
        # A crowd's fan-out calls this once per spectator: the check and the write are kept
        # at this one call level.
        protocol = self.protocol
        if protocol is not None:
            transport = transport_ready(protocol)
            if transport is not None:
                transport.write(frame_of(text))
                return None
        return started(text_frame(self.send, text))

    def write_all(self, texts: list[str]) -> bool:
        protocol = self.protocol
        if protocol is None:
            return False
        transport = transport_ready(protocol)
        if transport is None:
            return False
        transport.write(b"".join([frame_of(text) for text in texts]))
        return True

    def frame(self, text: str) -> Coroutine[Any, Any, None]:
        return text_frame(self.send, text)

    def close_now(self, code: int, reason: str, timeout: float) -> bool:
        protocol = self.protocol
        return protocol is not None and close_now(protocol, code, reason, timeout)


class PlainSender:
    """One connection's frames through Starlette's ``websocket.send_text``."""

    __slots__ = ("websocket",)

    def __init__(self, websocket: Any) -> None:
        self.websocket = websocket

    def start(self, text: str) -> Awaitable[None] | None:
        return started(self.websocket.send_text(text))

    def write_all(self, texts: list[str]) -> bool:
        return False

    def frame(self, text: str) -> Coroutine[Any, Any, None]:
        coroutine: Coroutine[Any, Any, None] = self.websocket.send_text(text)
        return coroutine

    def close_now(self, code: int, reason: str, timeout: float) -> bool:
        return False


def sender_for(websocket: Any) -> Sender:
    """The fastpath sender of ``websocket`` when its scope has the server's ``send``
    (``RawSend`` in front), else the plain one."""
    send = server_send(websocket)
    return FastSender(send) if send is not None else PlainSender(websocket)


def started(coroutine: Coroutine[Any, Any, None]) -> Awaitable[None] | None:
    """Run a send's coroutine on the caller's turn until it first waits: None when it
    finished without waiting (the frame is written), else an awaitable that finishes it.

    A send that the socket takes at once thus costs no task, and a frame sent while nothing
    waits leaves in the order of the calls. What the coroutine raises is raised here."""
    try:
        waiting = coroutine.send(None)
    except StopIteration:
        return None
    return _Resumed(coroutine, waiting)


class _Resumed:
    """Awaiting it finishes a coroutine that was started by hand and suspended on
    ``waiting``: the same hand-over as ``yield from``, which an ``async def`` cannot use."""

    __slots__ = ("_coroutine", "_waiting")

    def __init__(self, coroutine: Coroutine[Any, Any, None], waiting: object) -> None:
        self._coroutine = coroutine
        self._waiting = waiting

    def __await__(self) -> Generator[Any, None, None]:
        coroutine, waiting = self._coroutine, self._waiting
        while True:
            try:
                yield waiting  # the task waits on what the coroutine waits on
            except GeneratorExit:
                coroutine.close()
                raise
            except BaseException as exc:  # a cancel: the coroutine gets it where it waits
                try:
                    waiting = coroutine.throw(exc)
                except StopIteration:
                    return
            else:
                try:
                    waiting = coroutine.send(None)
                except StopIteration:
                    return
