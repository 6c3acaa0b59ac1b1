"""A silent drop, as a person on a failing network gets it: the packets stop (the delaying
proxy's blackhole: nothing forwarded, nothing closed) and no browser event says so. The
heartbeat (docs/protocol.md) shows "Reconnecting…" on the board within about three seconds,
the server marks the player offline for the opponent within a few seconds more, a move
made meanwhile waits, and once the network is back the page resumes the seat and sends it."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import expect

from bench.delay_proxy import DelayProxy
from tests.e2e.browser_helpers import cell, connection, expect_cell, player, seat, status_line
from tests.support.live_server import LiveServer

pytestmark = pytest.mark.e2e

SHOWN_WITHIN_MS = 3250  # static/js/net/socket.js: HEARTBEAT_MS + DEAD_MS + a tick (250)
SLACK_MS = 1500  # a loaded machine's late timers: a bound against hangs, not the goal
NOTICED_WITHIN_MS = 20_000
"""The server's side: --heartbeat-timeout, its protocol ping, the same again and the close
(about 6 s quiet); a bound against hangs that a CI host at load 20 still meets."""
RESUMED_MS = 20_000  # the attempt under way when the line returns hangs until OPEN_MS


@pytest.fixture
def proxy(live_server: LiveServer) -> Iterator[DelayProxy]:
    with DelayProxy("127.0.0.1", live_server.port, delay=0.05) as running:
        yield running


def overlay(page: Any) -> Any:
    return page.locator(".line-overlay")


def test_a_silent_drop_shows_reconnecting_within_seconds_and_the_server_notices(
    proxy: DelayProxy, new_page: Any, create_room: Any, screenshot: Any
) -> None:
    # (the proxy first: it outlives the pages, whose sockets would see it close)
    room = create_room()
    x = seat(new_page(name="Xia", base_url=proxy.url), room, "X")
    o = seat(new_page(name="Oda"), room, "O")
    cell(x, 2, 2).click()
    expect_cell(o, 2, 2, "X")
    expect(player(o, "X")).to_have_attribute("data-state", "online")
    expect(connection(x)).to_have_text("Connected")

    proxy.blackhole()
    cut = x.evaluate("() => performance.now()")
    assert x.evaluate("() => navigator.onLine")  # no browser event tells the page anything
    expect(overlay(x)).to_contain_text("Reconnecting…", timeout=SHOWN_WITHIN_MS + SLACK_MS)
    shown = x.evaluate("() => performance.now()")
    assert shown - cut <= SHOWN_WITHIN_MS + SLACK_MS
    expect(connection(x)).not_to_have_text("Connected")
    screenshot(x, "silent-drop-reconnecting")

    # The server noticed too: the opponent sees X offline (not "left": the long grace)
    expect(player(o, "X")).to_have_attribute("data-state", "offline", timeout=NOTICED_WITHIN_MS)
    expect(player(o, "X")).to_contain_text("offline")

    # The opponent moves meanwhile: X catches up once back
    expect(status_line(o)).to_have_text("Your move")
    cell(o, 1, 1).click()
    expect_cell(o, 1, 1, "O")

    proxy.restore()
    expect(overlay(x)).to_be_hidden(timeout=RESUMED_MS)
    expect(connection(x)).to_have_text("Connected")
    expect_cell(x, 1, 1, "O")  # caught up on what happened meanwhile
    expect(player(o, "X")).to_have_attribute("data-state", "online")
    cell(x, 3, 3).click()
    expect_cell(o, 3, 3, "X")
