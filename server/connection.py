"""One WebSocket's outgoing side: a bounded queue drained by its own writer task.

``send`` never waits: it queues the text (encoded once for everyone) or, when the queue is
full because the client does not read, marks the connection for closing with 4009. Nobody
else ever waits for this client (invariant 8). ``ending`` is set when the connection must
close, with ``close_code`` saying why.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from starlette.websockets import WebSocket, WebSocketDisconnect

from rooms import new_connection_id

from .close_codes import CloseCode

__all__ = ["Connection"]

log = logging.getLogger("tictactoe.server")


class Connection:
    def __init__(self, websocket: WebSocket, *, queue_size: int, conn_id: str | None = None
                 ) -> None:
        self.id = conn_id if conn_id is not None else new_connection_id()
        self.websocket = websocket
        self._queue: asyncio.Queue[str] = asyncio.Queue(maxsize=queue_size)
        self.ending = asyncio.Event()
        self.close_code: int | None = None
        self.close_reason = ""
        self.sent = 0
        self._writer = asyncio.create_task(self._write(), name=f"writer:{self.id}")

    def send(self, text: str) -> bool:
        """Queue ``text`` for this client; False (and the connection ends) when it is too slow."""
        if self.ending.is_set():
            return False
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            log.info("connection %s: send queue full, dropping a slow client", self.id)
            self.end(CloseCode.TOO_SLOW, "send queue overflow: the client does not read")
            return False
        return True

    def end(self, code: int | None, reason: str = "") -> None:
        """Mark the connection for closing (``code`` None: the peer already went away)."""
        if not self.ending.is_set():
            self.close_code = code
            self.close_reason = reason
            self.ending.set()

    async def _write(self) -> None:
        while True:
            text = await self._queue.get()
            try:
                await self.websocket.send_text(text)
            except (WebSocketDisconnect, OSError, RuntimeError):
                self.end(None, "the peer went away")
                return
            except Exception:  # a bug must not wedge the connection: drop it, loudly
                log.exception("connection %s: could not send a message", self.id)
                self.end(CloseCode.INTERNAL_ERROR, "internal error")
                return
            finally:
                self._queue.task_done()
            self.sent += 1

    async def close(self, timeout: float) -> None:
        """Flush what is queued (unless too slow), then close with ``close_code``; never
        waits more than about ``timeout`` seconds in all, whatever the client does."""
        code = self.close_code
        if code is not None and code != CloseCode.TOO_SLOW:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._queue.join(), timeout)
        self._writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._writer
        if code is None:
            return
        with contextlib.suppress(TimeoutError, WebSocketDisconnect, OSError, RuntimeError):
            await asyncio.wait_for(self.websocket.close(code, self.close_reason[:120]), timeout)
