"""A session's reading: frames, the edge rules on them, and messages taken directly.

``FrameReader`` is the part of ``Session`` (server.ws.session) that reads the socket:

- the join timeout (no frame after it, the close 4008), binary frames refused (1003), the
  peer's close and uvicorn's refusals of a frame;
- the rate limit per message, and a flood (``flood_strikes`` refusals in a row) closed;
- once joined, a message the protocol receives while the reader waits on the ASGI queue is
  taken from ``data_received`` directly (server.fastpath.direct_receive), handled in a task
  of its own; the next one waits for it, so messages stay in order;
- at the close, a ``leave`` still unread in front of the peer's disconnect.

Each message read goes to ``_handle``, which the session defines.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Callable

from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect

from rooms import ErrorCode, RoomError
from rooms.protocol import ActionMessage, ClientType, parse_message

from ..settings import Settings
from .close_codes import CloseCode
from .connection import Connection
from .limits import TokenBucket
from .refusals import UVICORN_REFUSALS

__all__ = ["FrameReader"]

log = logging.getLogger("tictactoe.server")


class FrameReader:
    """Reading a session's socket (see the module); the attributes are the session's, set
    by its constructor."""

    room_id: str
    settings: Settings
    websocket: WebSocket
    conn: Connection
    _clock: Callable[[], float]
    _bucket: TokenBucket
    _strikes: int
    _join_deadline: float
    _parked: bool  # the reader waits for the next message
    _direct: asyncio.Task[None] | None  # a message taken directly, under way
    _context: contextvars.Context | None  # the socket's (its log context)
    heard: float  # when the client last sent a message

    def _has_joined(self) -> bool:
        raise NotImplementedError

    async def _handle(self, text: str) -> None:
        raise NotImplementedError

    def _error(self, exc: RoomError, ref: str | None = None) -> None:
        raise NotImplementedError

    def _refused(self, refusal: str, code: int | None) -> None:
        raise NotImplementedError

    async def _receive(self) -> Message | None:
        """The next frame, or None when the peer left or never joined in time."""
        if not self._has_joined():
            remaining = self._join_deadline - self._clock()
            try:  # asyncio.timeout, not wait_for: no task of its own per connection
                async with asyncio.timeout(max(remaining, 0)):
                    message = await self.websocket.receive()
            except TimeoutError:
                self.conn.end(CloseCode.JOIN_TIMEOUT, "no join in time")
                return None
        else:
            self._parked = True
            try:
                message = await self.websocket.receive()
            finally:
                self._parked = False
            await self._direct_settled()  # one taken directly came first: it ends first
        if message["type"] == "websocket.disconnect":
            code = message.get("code")
            if code in UVICORN_REFUSALS:  # uvicorn refused a frame and closed the socket
                self._refused(UVICORN_REFUSALS[code], code)
            self.conn.end(None, "the peer closed")
            return None
        return message

    async def _read(self) -> None:
        while not self.conn.ended:
            try:
                message = await self._receive()
            except (WebSocketDisconnect, RuntimeError):
                self.conn.end(None, "the peer closed")
                return
            if message is None:
                return
            text = message.get("text")
            if not isinstance(text, str):
                self.conn.end(CloseCode.UNSUPPORTED_DATA, "binary frames are not accepted")
                return
            await self._message(text)

    async def _message(self, text: str) -> None:
        """One text message: the rate limit (a flood closes), then its handling."""
        self.heard = self._clock()  # the heartbeat sweep's (server.ws.heartbeat)
        if not self._bucket.take(self._clock()):
            self._strikes += 1
            if self._strikes >= self.settings.flood_strikes:
                self.conn.end(CloseCode.FLOOD, "flooding: too many messages")
                return
            self._error(RoomError(ErrorCode.RATE_LIMITED, "too many messages; slow down"))
            return
        self._strikes = 0
        await self._handle(text)

    # -- messages taken from the protocol (fastpath: server.fastpath.direct_receive) ------

    def _offered(self, text: str) -> bool:
        """Take ``text`` past the ASGI queue when the reader waits on it and nothing is
        under way: handled in a task of its own; False leaves it to the queue, behind what
        is under way (the reader lets that end first)."""
        if not self._parked or self._direct is not None or self.conn.ended:
            return False
        self._direct = asyncio.get_running_loop().create_task(
            self._take(text), context=self._context
        )
        return True

    async def _take(self, text: str) -> None:
        try:
            await self._message(text)
        except Exception:  # as in the reader: close this connection, keep serving
            log.exception("room %s: connection %s failed", self.room_id, self.conn.id)
            self.conn.end(CloseCode.INTERNAL_ERROR, "internal error")
        finally:
            self._direct = None

    async def _direct_settled(self) -> None:
        """Wait for the message taken directly to be handled (whatever its end)."""
        direct = self._direct
        if direct is not None and direct is not asyncio.current_task():
            await asyncio.wait((direct,))

    async def _leave_unread(self) -> bool:
        """Whether the frames that arrived before the peer's disconnect hold a ``leave``
        (read up to the disconnect, at most ``close_timeout``; nothing else is handled:
        the connection is gone)."""
        try:
            async with asyncio.timeout(self.settings.close_timeout):
                while True:
                    message = await self.websocket.receive()
                    text = message.get("text")
                    if message["type"] == "websocket.disconnect":
                        return False
                    if isinstance(text, str) and self._is_leave(text):
                        return True
        except (TimeoutError, WebSocketDisconnect, RuntimeError):
            return False

    def _is_leave(self, text: str) -> bool:
        try:
            message = parse_message(text, max_bytes=self.settings.max_message_bytes)
        except RoomError:
            return False
        return isinstance(message, ActionMessage) and message.kind is ClientType.LEAVE
