"""uvicorn's HTTP and WebSocket protocols, freeing a connection as soon as it ends.

Both of uvicorn's protocols sit in a reference cycle that outlives their connection, so
everything a connection held (protocols, parsers, buffers, flow control, bound methods:
about seventy objects) waited for the collector's next *full* collection. A worker that
serves a new room per game opens and closes hundreds of WebSockets a second: that garbage
alone doubled its heap again and again, and each doubling cost a full collection of
100-500 ms with the event loop stopped (docs/performance.md, item 28). The two cycles:

- ``HttpToolsProtocol`` gives its parser the protocol itself for callbacks. A connection
  that ends as HTTP breaks that cycle (``connection_lost`` drops the parser), but one
  upgraded to a WebSocket hands its transport over and never hears from it again.
  ``UpgradeReleasingHttpTools`` drops the parser once the upgrade is done.
- websockets' sans-I/O ``ServerProtocol`` keeps its parser, a generator whose frame holds
  the protocol. The parser would finish at the end of the stream, which uvicorn never
  feeds it (its ``eof_received`` and ``connection_lost`` leave the parser suspended).
  ``ReleasingWebSockets`` closes it once the connection is lost: nothing parses after that.

Everything else is uvicorn's. ``server.cli.serve.uvicorn_options`` names these classes
as uvicorn's ``http`` and ``ws`` when httptools and the sans-I/O implementation are
installed (the relay of ``tictactoe bench`` runs on the same options). The module needs
both: import it only then.
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
