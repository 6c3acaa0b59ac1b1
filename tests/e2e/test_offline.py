"""Offline and back: the board says "Reconnecting…" as soon as the line drops or the browser
goes offline, a move made meanwhile is drawn, queued and sent after the reconnect with its
move_id (once), and the board says "Back"; the header pill stays as a second cue."""

from __future__ import annotations

import contextlib
import json
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from playwright.sync_api import expect

from tests.e2e.browser_helpers import (
    cell,
    connection,
    expect_cell,
    moves,
    player,
    seat,
    status_line,
)
from tests.e2e.socket_line import two_players

pytestmark = pytest.mark.e2e


def overlay(page: Any) -> Any:
    return page.locator(".line-overlay")


class Frames:
    """Every frame a page sends on its room sockets, with the socket's number."""

    def __init__(self, page: Any) -> None:
        self.sent: list[tuple[int, dict[str, Any]]] = []
        self.sockets = 0
        page.on("websocket", self._socket)

    def _socket(self, ws: Any) -> None:
        if "/ws/" not in ws.url:
            return
        self.sockets += 1
        number = self.sockets
        ws.on("framesent", lambda payload: self.sent.append((number, json.loads(payload))))

    def of(self, type_: str) -> list[tuple[int, dict[str, Any]]]:
        return [(n, m) for n, m in self.sent if m["type"] == type_]


def test_offline_shows_on_the_board_and_a_move_made_then_lands_after_reconnect(
    new_page: Any, create_room: Any, screenshot: Any
) -> None:
    room = create_room()
    x = new_page(name="Xia")
    frames = Frames(x)
    seat(x, room, "X")
    o = new_page(name="Oda")
    seat(o, room, "O")
    expect(status_line(x)).to_have_text("Your move")
    expect(overlay(x)).to_be_hidden()

    x.context.set_offline(True)
    expect(overlay(x)).to_contain_text("Reconnecting…")
    expect(overlay(x)).to_contain_text("This device is offline")
    expect(connection(x)).to_contain_text("No network")  # the header pill says it too

    # A move made offline: drawn at once, waiting for the line.
    cell(x, 2, 2).click()
    expect_cell(x, 2, 2, "X")
    expect(overlay(x)).to_contain_text("b2 is sent when the connection is back")
    screenshot(x, "offline-queued-move")
    assert frames.of("move") == []

    x.context.set_offline(False)
    expect_cell(o, 2, 2, "X")
    expect(overlay(x)).to_have_text("Back")
    expect(overlay(x)).to_be_hidden()
    expect(connection(x)).to_have_text("Connected")
    expect(moves(x)).to_have_count(1)
    expect(moves(o)).to_have_count(1)
    (socket, move), *more = frames.of("move")
    assert more == [], "the queued move goes out once"
    assert socket > 1, "on the new connection"
    assert move["move_id"] and (move["row"], move["col"]) == (1, 1)
    joins = frames.of("join")
    assert joins[-1][0] == socket and joins[-1][1]["token"]  # the seat resumed first

    cell(o, 1, 1).click()
    expect_cell(x, 1, 1, "O")
    expect(status_line(x)).to_have_text("Your move")


def test_a_dropped_socket_shows_reconnecting_at_once_then_back(
    new_page: Any, create_room: Any
) -> None:
    x, line, o = two_players(new_page, create_room())

    line.refuse = True
    line.cut()
    expect(overlay(x)).to_contain_text("Reconnecting…")
    expect(x.locator(".board-frame")).to_have_attribute("data-line", "down")
    expect(player(o, "X")).to_have_attribute("data-state", "offline")
    cell(x, 1, 1).click()  # queued behind the outage
    expect(overlay(x)).to_contain_text("a1 is sent when the connection is back")
    retry = x.get_by_role("button", name="Retry now")
    expect(retry).to_be_visible()  # waiting between two refused tries
    line.refuse = False
    # The button comes and goes with each try (waiting ↔ connecting), so it is pressed by
    # event, not by pointer; and the page's own next try may come first and bring the line
    # back before the press lands, which is the same recovery this test is about.
    with contextlib.suppress(PlaywrightTimeoutError):
        retry.dispatch_event("click", timeout=2_000)
    expect(overlay(x)).to_have_text("Back")
    expect_cell(o, 1, 1, "X")
    expect(overlay(x)).to_be_hidden()
    assert len(line.sent_of("move")) == 1
