"""The client survives a bad line: a lost event is repaired with `sync`, a cut connection
comes back with backoff, resumes the seat with its token and last version, and a move
whose answer was lost is retried with the same move_id and lands once.

The page's room socket is routed through the test (Playwright's route_web_socket) to the
real server, so the test can drop a message or cut the line exactly when it wants.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import (
    cell,
    connection,
    expect_cell,
    move_error,
    moves,
    player,
    role_badge,
    watchers,
)
from tests.support.waiting import eventually_sync

pytestmark = pytest.mark.e2e

WAIT = 10.0  # seconds: a bound against hangs, not a measurement


class Line:
    """A page's room socket, through the test: records both directions; can drop server
    messages, cut the connection and refuse new ones."""

    def __init__(self, page: Any) -> None:
        self.sent: list[dict[str, Any]] = []  # page → server
        self.received: list[dict[str, Any]] = []  # server → page (forwarded or not)
        self.drop: Callable[[dict[str, Any]], bool] | None = None
        self.cut_after: Callable[[dict[str, Any]], bool] | None = None
        self.refuse = False
        self.connections = 0
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
            self.sent.append(json.loads(text))
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
            ws.send(text)

        ws.on_message(from_page)
        server.on_message(from_server)

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


def two_players(new_page: Any, room: str) -> tuple[Any, Line, Any]:
    x = new_page(name="Xia")
    line = Line(x)
    x.goto(f"/r/{room}")
    expect(role_badge(x)).to_have_text("You play X")
    o = new_page(name="Oda")
    o.goto(f"/r/{room}")
    expect(role_badge(o)).to_have_text("You play O")
    return x, line, o


def test_lost_events_are_repaired_with_sync(new_page: Any, create_room: Any) -> None:
    room = create_room()
    x, line, o = two_players(new_page, room)

    # An event lost on the way shows as a version gap when the next one arrives.
    line.drop = lambda m: m["type"] == "spectators"
    watcher = new_page()
    watcher.goto(f"/r/{room}/watch")
    expect(watchers(o)).to_have_text("1")
    cell(x, 2, 2).click()
    expect_cell(o, 2, 2, "X")
    expect_cell(x, 2, 2, "X")
    expect(watchers(x)).to_have_text("1")
    assert len(line.sent_of("sync")) == 1, "a version gap must make the client send sync"

    # X's own move is acknowledged but its event is lost: move_ok names the version, so
    # the client knows it is behind and syncs by itself, without waiting for another event.
    cell(o, 1, 1).click()
    expect_cell(x, 1, 1, "O")
    line.drop = lambda m: m["type"] == "moved" and m["mark"] == "X"
    cell(x, 3, 3).click()
    expect_cell(o, 3, 3, "X")
    expect_cell(x, 3, 3, "X")
    assert len(line.sent_of("sync")) == 2
    expect(moves(x)).to_have_count(3)
    cell(o, 1, 3).click()
    expect_cell(x, 1, 3, "O")
    expect(watchers(x)).to_have_text("1")


def test_a_cut_line_reconnects_resumes_the_seat_and_retries_the_move_once(
    new_page: Any, create_room: Any
) -> None:
    x, line, o = two_players(new_page, create_room())
    cell(x, 2, 2).click()
    expect_cell(o, 2, 2, "X")
    cell(o, 1, 1).click()
    expect_cell(x, 1, 1, "O")

    # The line dies while the server answers X's next move: X never hears the answer.
    line.cut_after = lambda m: m["type"] == "move_ok"
    cell(x, 3, 3).click()
    expect_cell(o, 3, 3, "X")  # it did land
    line.wait_for(x, "the move to be sent again", lambda: len(line.sent_of("move")) == 3)
    line.wait_for(
        x,
        "the duplicate's answer",
        lambda: any(m["type"] == "move_ok" and m.get("duplicate") for m in line.received),
    )
    expect(connection(x)).to_have_text("Connected")  # back again by itself
    expect_cell(x, 3, 3, "X")
    expect(moves(o)).to_have_count(3)  # once, not twice
    first, sent, resent = line.sent_of("move")
    assert sent["move_id"] == resent["move_id"] != first["move_id"]
    assert sent["version"] == resent["version"]
    assert any(m["type"] == "move_ok" and m.get("duplicate") for m in line.received)
    joins = line.sent_of("join")
    assert len(joins) == 2
    assert joins[1]["token"] and joins[1]["last_version"] >= 1 and "name" not in joins[1]
    expect(move_error(x)).to_be_hidden()

    # A longer outage: the page says so plainly, the opponent sees X drop and come back.
    line.refuse = True
    line.cut()
    expect(connection(x)).to_contain_text("Offline")
    expect(connection(x)).to_have_attribute("data-tone", "bad")
    expect(player(o, "X")).to_have_attribute("data-state", "offline")
    line.refuse = False
    x.get_by_role("button", name="Retry now").click()
    expect(connection(x)).to_have_text("Connected")
    expect(player(o, "X")).to_have_attribute("data-state", "online")
    expect(role_badge(x)).to_have_text("You play X")
    cell(o, 1, 3).click()
    expect_cell(x, 1, 3, "O")
    cell(x, 1, 2).click()
    expect_cell(o, 1, 2, "X")
