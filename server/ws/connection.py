"""One WebSocket's outgoing side: frames written at once when the socket takes them, else
a bounded queue drained by a writer task.

``send`` never waits: it hands the text to the socket, or queues it behind what is
queued, or, when the queue is full because the client does not read, marks the
connection for closing with 4009. Nobody else ever waits for this client (invariant 8).
``end`` marks the connection for closing, with ``close_code`` saying why, and calls
``on_end`` (the session stops reading).

A frame is sent on the sender's own turn when nothing is queued before it: the
connection's ``Sender`` (server.fastpath.sender, the one seam to how frames leave: straight
to the transport, the server's ASGI ``send`` or Starlette's ``send_text``) sends it at once
when the socket is not paused. Only when the socket makes it wait (the client reads
slowly) does the rest go to a writer task, which finishes that send and then drains the
queue in order; later frames queue behind it, so the order is always the order of
``send``. An idle connection holds no task and no queue object.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable

from starlette.websockets import WebSocket, WebSocketDisconnect

from rooms import Feed, RoomService, new_connection_id

from ..fastpath import sender_for
from ..metrics import edge as metrics
from .close_codes import CloseCode

__all__ = ["Connection"]

log = logging.getLogger("tictactoe.server")

_GONE = (WebSocketDisconnect, OSError, RuntimeError)
"""What a send raises when the peer went away (uvicorn's ClientDisconnected is an OSError;
a send after the close frame is a RuntimeError)."""


class Connection:
    __slots__ = (
        "_pending",
        "_sender",
        "_size",
        "_writer",
        "close_code",
        "close_reason",
        "ended",
        "id",
        "on_end",
        "sent",
        "websocket",
    )

    def __init__(
        self, websocket: WebSocket, *, queue_size: int, conn_id: str | None = None
    ) -> None:
        self.id = conn_id if conn_id is not None else new_connection_id()
        self.websocket = websocket
        self._sender = sender_for(websocket)
        self._size = queue_size
        self._pending: list[str] = []  # queued, not yet handed to the socket
        self._writer: asyncio.Task[None] | None = None
        self.ended = False
        """Set once the connection must close (then nothing more is queued)."""
        self.on_end: Callable[[], None] | None = None
        self.close_code: int | None = None
        self.close_reason = ""
        self.sent = 0

    def send(self, text: str) -> bool:
        """Send ``text`` to this client, at once or after what is queued; False (and the
        connection ends) when it is too slow."""
        if self.ended:
            return False
        if self._writer is None:  # nothing queued: hand it to the socket now
            return self._start(text)
        if len(self._pending) >= self._size:
            # logged once, at WARNING, by the session when it closes (server.ws.session)
            self.end(CloseCode.TOO_SLOW, "send queue overflow: the client does not read")
            metrics.send_queue_drop()
            return False
        self._pending.append(text)
        return True

    def send_all(self, texts: list[str]) -> bool:
        """``send`` of each of ``texts`` in turn, written to the socket in one write when it
        takes them at once: a command's answer and its event (rooms.fanout.feed), or a crowd's
        spectator owed several events (rooms.fanout.hub)."""
        if self.ended:
            return False
        if self._writer is None and self._sender.write_all(texts):
            self.sent += len(texts)
            return True
        return all(self.send(text) for text in texts)

    def feed(self, room_id: str, service: RoomService) -> Feed:
        """A feed of the room's events to this client, writing what it can in one write."""
        return Feed(room_id, service, self.send, send_all=self.send_all)

    def _start(self, text: str) -> bool:
        """Hand ``text`` to the socket now; when the socket makes it wait, a writer task
        finishes that send, then the queue."""
        try:
            waiting = self._sender.start(text)
        except _GONE:
            self.end(None, "the peer went away")
            return False
        except Exception:  # a bug must not wedge the connection: drop it, loudly
            log.exception("connection %s: could not send a message", self.id)
            self.end(CloseCode.INTERNAL_ERROR, "internal error")
            return False
        if waiting is None:
            self.sent += 1
        else:
            self._writer = asyncio.create_task(self._write(waiting), name=f"writer:{self.id}")
        return True

    def end(self, code: int | None, reason: str = "") -> None:
        """Mark the connection for closing (``code`` None: the peer already went away)."""
        if self.ended:
            return
        self.close_code = code
        self.close_reason = reason
        self.ended = True
        if self.on_end is not None:
            self.on_end()

    async def _write(self, first: Awaitable[None]) -> None:
        try:
            sending = first
            while True:
                try:
                    await sending
                except _GONE:
                    self._pending.clear()
                    self.end(None, "the peer went away")
                    return
                except Exception:  # a bug must not wedge the connection: drop it, loudly
                    log.exception("connection %s: could not send a message", self.id)
                    self._pending.clear()
                    self.end(CloseCode.INTERNAL_ERROR, "internal error")
                    return
                self.sent += 1
                if not self._pending:
                    return
                sending = self._sender.frame(self._pending.pop(0))  # short: a few hundred
        finally:
            self._writer = None

    async def close(self, timeout: float) -> None:
        """Flush what is queued (unless too slow), then close with ``close_code``; never
        waits more than about ``timeout`` seconds in all, whatever the client does."""
        code = self.close_code
        writer = self._writer
        if writer is not None and code is not None and code != CloseCode.TOO_SLOW:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(writer), timeout)
        self._pending.clear()
        writer = self._writer
        if writer is not None:
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer
        if code is None:
            return
        # Too slow: the socket takes no more frames, and a close through Starlette would wait
        # for it, then time out unwritten. Queued now, it reaches the client if it reads again.
        if code == CloseCode.TOO_SLOW and self._sender.close_now(
            code, self.close_reason[:120], timeout
        ):
            return
        with contextlib.suppress(TimeoutError, WebSocketDisconnect, OSError, RuntimeError):
            await asyncio.wait_for(self.websocket.close(code, self.close_reason[:120]), timeout)
