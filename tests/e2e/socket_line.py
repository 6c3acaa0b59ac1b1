"""A page's room socket routed through the test (Playwright's ``route_web_socket``) to the
real server, so a test can see every frame, drop or hold back the server's messages, cut
the line, refuse new connections, or rewrite what the page sends."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import expect

from tests.e2e.browser_helpers import seat, status_line
from tests.support.waiting import eventually_sync

WAIT = 10.0  # seconds: a bound against hangs, not a measurement


class Line:
    """A page's room socket, through the test: records both directions; can drop server
    messages, hold them back, cut the connection, refuse new ones and rewrite moves."""

    def __init__(self, page: Any) -> None:
        self.sent: list[dict[str, Any]] = []  # page → server
        self.received: list[dict[str, Any]] = []  # server → page (forwarded or not)
        self.drop: Callable[[dict[str, Any]], bool] | None = None
        self.cut_after: Callable[[dict[str, Any]], bool] | None = None
        self.rewrite: Callable[[dict[str, Any]], dict[str, Any]] | None = None
        self.refuse = False
        self.connections = 0
        self._held: list[str | bytes] | None = None  # server messages not yet delivered
        self._page_side: Any = None
        self._server_side: Any = None
        page.route_web_socket(re.compile(r"/ws/"), self._route)

    def _route(self, ws: Any) -> None:
        self.connections += 1
        self._page_side = ws
        if self.refuse:  # the handshake "works", then the line drops at once
            ws.close(code=1011, reason="test: refused")
            return
        server = self._server_side = ws.connect_to_server()

        def from_page(text: str | bytes) -> None:
            message = json.loads(text)
            self.sent.append(message)
            if self.rewrite is not None:
                text = json.dumps(self.rewrite(message))
            server.send(text)

        def from_server(text: str | bytes) -> None:
            message = json.loads(text)
            self.received.append(message)
            if self.cut_after is not None and self.cut_after(message):
                self.cut_after = None
                self.cut()
                return
            if self.drop is not None and self.drop(message):
                self.drop = None  # drop one message only
                return
            if self._held is not None:
                self._held.append(text)
                return
            ws.send(text)

        ws.on_message(from_page)
        server.on_message(from_server)

    def hold(self) -> None:
        """Keep the server's messages from the page until ``release``."""
        self._held = []

    def held(self) -> list[dict[str, Any]]:
        return [json.loads(text) for text in self._held or []]

    def release(self) -> None:
        held, self._held = self._held or [], None
        for text in held:
            self._page_side.send(text)

    def cut(self) -> None:
        """Close both sides, as a restarting server would (the page sees 1012)."""
        if self._server_side is not None:
            self._server_side.close(code=1000, reason="test: cut")
        self._page_side.close(code=1012, reason="test: cut")

    def sent_of(self, type_: str) -> list[dict[str, Any]]:
        return [m for m in self.sent if m["type"] == type_]

    def wait_for(self, page: Any, what: str, predicate: Callable[[], bool]) -> None:
        """Let the page run until `predicate` holds (the socket's messages are handled while
        Playwright waits), bounded by a deadline."""
        eventually_sync(
            predicate,
            what,
            timeout=WAIT,
            interval=0.025,
            pause=lambda seconds: page.wait_for_timeout(seconds * 1000),
        )


def two_players(new_page: Callable[..., Any], room: str) -> tuple[Any, Line, Any]:
    """X (Xia, its socket through a ``Line``) and O (Oda) seated in ``room``, X to move."""
    x = new_page(name="Xia")
    line = Line(x)
    seat(x, room, "X")
    o = seat(new_page(name="Oda"), room, "O")
    expect(status_line(x)).to_have_text("Your move")
    return x, line, o
