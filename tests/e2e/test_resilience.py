"""The client survives a bad line: a lost event is repaired with `sync`, a cut connection
comes back with backoff, resumes the seat with its token and last version, and a move
whose answer was lost is retried with the same move_id and lands once.

The page's room socket is routed through the test (Playwright's route_web_socket) to the
real server, so the test can drop a message or cut the line exactly when it wants.
"""

from __future__ import annotations

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
from tests.e2e.socket_line import two_players

pytestmark = pytest.mark.e2e


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
    expect_cell(x, 3, 3, "X")  # drawn on the click; the server's word comes by sync
    line.wait_for(x, "the client to sync", lambda: len(line.sent_of("sync")) == 2)
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
