"""uvicorn's HTTP and WebSocket protocols, freeing a connection as soon as it ends.

Both of uvicorn's protocols sit in a reference cycle that outlives their connection, so
everything a connection held (protocols, parsers, buffers, flow control, bound methods)
waits for the collector's next *full* collection; a worker that opens and closes many
WebSockets a second would pile that garbage up and pay for it in long full collections
with the event loop stopped. The two cycles:

- ``HttpToolsProtocol`` gives its parser the protocol itself for callbacks; a connection
  upgraded to a WebSocket hands its transport over and never drops it.
  ``UpgradeReleasingHttpTools`` drops the parser once the upgrade is done.
- websockets' sans-I/O ``ServerProtocol`` keeps its parser, a generator whose frame holds
  the protocol, suspended forever (uvicorn never feeds it the end of the stream).
  ``ReleasingWebSockets`` closes it once the connection is lost.

Everything else is uvicorn's. ``server.cli.serve.uvicorn_options`` names these classes as
uvicorn's ``http`` and ``ws`` when the fastpath is on and httptools and the sans-I/O
implementation are installed (the module subclasses both: import it only then).
"""

from __future__ import annotations

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

__all__ = ["ReleasingWebSockets", "UpgradeReleasingHttpTools"]


class UpgradeReleasingHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol, without its parser once the connection is upgraded."""

    def handle_websocket_upgrade(self) -> None:
        super().handle_websocket_upgrade()
        # The transport now belongs to the WebSocket protocol: this one never parses again
        # (data_received returns right after this call), so the cycle can go.
        self.parser = None  # type: ignore[assignment]


class ReleasingWebSockets(WebSocketsSansIOProtocol):
    """uvicorn's websockets sans-I/O protocol, closing websockets' parser once the
    connection is lost."""

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        # No data comes after connection_lost: the suspended parser (parse, or discard
        # after a close frame) can end; closed, its frame lets go of the ServerProtocol.
        self.conn.parser.close()
