"""uvicorn's HTTP and WebSocket protocols, freeing a connection as soon as it ends.

Both of uvicorn's protocols sit in a reference cycle that outlives their connection, so
everything a connection held (protocols, parsers, buffers, flow control, bound methods)
waits for the collector's next *full* collection; a worker that opens and closes many
WebSockets a second would pile that garbage up and pay for it in long full collections
with the event loop stopped. The two cycles:

- ``HttpToolsProtocol`` gives its parser the protocol itself for callbacks; a connection
  upgraded to a WebSocket hands its transport over and never drops it.
  ``UpgradeReleasingHttpTools`` drops the parser once the upgrade is done. It also answers a
  request that does not parse (a bad request line or header, such as ``Content-Length:
  99999999999999999999``) with the typed ``{"code", "message"}`` body of every other error,
  where uvicorn sends plain text.
- websockets' sans-I/O ``ServerProtocol`` keeps its parser, a generator whose frame holds
  the protocol, suspended forever (uvicorn never feeds it the end of the stream).
  ``ReleasingWebSockets`` closes it once the connection is lost.

``ReleasingWebSockets`` also offers each text message to a joined session before its
queue (``direct``, server.fastpath.direct_receive), and resets a connection still open
``2 * close_timeout`` after its app returned: uvicorn then closes the transport, and a close
waits for the write buffer to drain, forever for a peer that never reads again (it would
hold the socket and its buffers for as long as it likes). And it refuses a text message
that is not valid UTF-8 with 1007 quietly: uvicorn would log an ERROR with a traceback for
each (any client can send one); the Session logs the refusal once, at WARNING, from the
disconnect code.

Everything else is uvicorn's. ``server.launch.uvicorn_options`` names these classes as
uvicorn's ``http`` and ``ws`` when the fastpath is on and httptools and the sans-I/O
implementation are installed (the module subclasses both: import it only then).
"""

from __future__ import annotations

from asyncio import TimerHandle
from collections.abc import Callable

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import CloseCode as WsCloseCode

from rooms import ErrorCode
from rooms.common.jsontext import dumps

from ..metrics import edge as metrics

__all__ = ["ReleasingWebSockets", "UpgradeReleasingHttpTools"]


class UpgradeReleasingHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol, without its parser once the connection is upgraded,
    and with a typed body for a request that does not parse."""

    def send_400_response(self, msg: str) -> None:
        body = dumps(
            {
                "code": ErrorCode.BAD_MESSAGE.value,
                "message": "the HTTP request could not be parsed (its request line or a header)",
            }
        ).encode()
        content = [b"HTTP/1.1 400 Bad Request\r\n"]
        for name, value in self.server_state.default_headers:
            content.extend([name, b": ", value, b"\r\n"])
        content.extend(
            [
                b"content-type: application/json\r\n",
                b"x-content-type-options: nosniff\r\n",
                b"content-length: " + str(len(body)).encode("ascii") + b"\r\n",
                b"connection: close\r\n",
                b"\r\n",
                body,
            ]
        )
        metrics.error(ErrorCode.BAD_MESSAGE, "http")
        self.transport.write(b"".join(content))
        self.transport.close()

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        # The transport now belongs to the WebSocket protocol: this one never parses again
        # (data_received returns right after this call), so the cycle can go.
        self.parser = None  # type: ignore[assignment]


class ReleasingWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's websockets sans-I/O protocol, closing websockets' parser once the
    connection is lost."""

    _reset_timer: TimerHandle | None = None
    direct: Callable[[str], bool] | None = None
    """A joined session's handler, offered each text message before the queue while
    nothing waits there (server.fastpath.direct_receive)."""

    async def run_asgi(self) -> None:
        await super().run_asgi()
        if not self.disconnected:  # closed now, or after the close handshake (close_timer)
            self._reset_timer = self.loop.call_later(2 * self.close_timeout, self._reset)

    def _reset(self) -> None:
        self._reset_timer = None
        if not self.disconnected:  # still draining to a peer that does not read
            self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        if self._reset_timer is not None:  # lets go of this protocol now, not in 20 s
            self._reset_timer.cancel()
            self._reset_timer = None
        self.direct = None  # the session's handler holds the session: let both go
        super().connection_lost(exc)
        # No data comes after connection_lost: the suspended parser (parse, or discard
        # after a close frame) can end; closed, its frame lets go of the ServerProtocol.
        self.conn.parser.close()

    def send_receive_event_to_app(self) -> None:
        # A message that is not ASCII is decoded once more here (isascii is the fast test):
        # if it is not UTF-8, close with 1007 as uvicorn does, without its traceback.
        if self.curr_msg_data_type == "text" and not self.close_sent:
            frames = self.frames
            data = frames[0] if len(frames) == 1 else b"".join(frames)
            if not data.isascii():
                try:
                    data.decode()
                except UnicodeDecodeError:
                    self.frames = []
                    self.conn.send_close(WsCloseCode.INVALID_DATA, "invalid UTF-8")
                    self.handle_parser_exception()
                    return
            direct = self.direct
            if direct is not None and self.queue.empty() and direct(data.decode()):
                self.frames = []  # taken: neither queued nor the socket paused
                return
        super().send_receive_event_to_app()
