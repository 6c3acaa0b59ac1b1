"""One WebSocket's outgoing side: a bounded queue drained by a writer task.

``send`` never waits: it queues the text (encoded once for everyone) or, when the queue is
full because the client does not read, marks the connection for closing with 4009. Nobody
else ever waits for this client (invariant 8). ``end`` marks the connection for closing,
with ``close_code`` saying why, and calls ``on_end`` (the session stops reading).

Memory matters here, since a worker holds thousands of mostly idle connections: the queue
is a plain list, and the writer task exists only while there is something to send (it
is started by the first ``send`` after a quiet spell and ends when the queue is empty), so
an idle connection holds no task, no queue object and no waiting future of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

from starlette.websockets import WebSocket, WebSocketDisconnect

from rooms import new_connection_id

from .close_codes import CloseCode

__all__ = ["Connection"]

log = logging.getLogger("tictactoe.server")


class Connection:
    __slots__ = (
        "_pending", "_size", "_writer", "close_code", "close_reason", "ended", "id", "on_end",
        "sent", "websocket",
    )

    def __init__(self, websocket: WebSocket, *, queue_size: int, conn_id: str | None = None
                 ) -> None:
        self.id = conn_id if conn_id is not None else new_connection_id()
        self.websocket = websocket
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
        """Queue ``text`` for this client; False (and the connection ends) when it is too slow."""
        if self.ended:
            return False
        if len(self._pending) >= self._size:
            log.info("connection %s: send queue full, dropping a slow client", self.id)
            self.end(CloseCode.TOO_SLOW, "send queue overflow: the client does not read")
            return False
        self._pending.append(text)
        if self._writer is None:
            self._writer = asyncio.create_task(self._write(), name=f"writer:{self.id}")
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

    async def _write(self) -> None:
        try:
            while self._pending:
                text = self._pending.pop(0)  # short lists: the bound is a few hundred
                try:
                    await self.websocket.send_text(text)
                except (WebSocketDisconnect, OSError, RuntimeError):
                    self._pending.clear()
                    self.end(None, "the peer went away")
                    return
                except Exception:  # a bug must not wedge the connection: drop it, loudly
                    log.exception("connection %s: could not send a message", self.id)
                    self._pending.clear()
                    self.end(CloseCode.INTERNAL_ERROR, "internal error")
                    return
                self.sent += 1
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
        with contextlib.suppress(TimeoutError, WebSocketDisconnect, OSError, RuntimeError):
            await asyncio.wait_for(self.websocket.close(code, self.close_reason[:120]), timeout)
