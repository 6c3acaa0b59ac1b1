"""Web Push in real Chromium: the service worker (static/sw.js) shows the server's message as
a notification for a push delivered through the DevTools protocol (as a push service would
deliver it to the browser), one per room (a newer replaces the older); and the lobby offers
the switch to a player with an identity."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from rooms.push import Notice, NoticeKind
from tests.e2e.push_helpers import delivered_and_shown, note_of, registered_worker
from tests.support.live_server import LiveServer

pytestmark = pytest.mark.e2e


def test_the_service_worker_shows_each_push_one_per_room(
    new_page: Any, live_server: LiveServer
) -> None:
    page = new_page(permissions=["notifications"])
    page.goto("/")
    cdp, registration = registered_worker(page)
    turn = Notice("p1", "q7m2kx9c", NoticeKind.TURN, "Your move", "Against Ada, move 4.", 7)
    ended = Notice("p1", "q7m2kx9c", NoticeKind.ENDED, "You won", "Against Ada: time.", 9)
    delivered_and_shown(page, cdp, live_server.url, registration, turn.payload(), [note_of(turn)])
    # the room's tag: the end replaces the turn
    delivered_and_shown(page, cdp, live_server.url, registration, ended.payload(), [note_of(ended)])
    other = Notice("p1", "b8k2m4x7", NoticeKind.TURN, "Your move", "Against Bob, move 1.", 3)
    delivered_and_shown(  # another room: beside it
        page, cdp, live_server.url, registration, other.payload(), [note_of(ended), note_of(other)]
    )


def test_the_worker_is_served_for_the_whole_site(live_server: LiveServer) -> None:
    answer = httpx.get(f"{live_server.url}/sw.js")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/javascript")
    assert answer.headers["cache-control"] == "no-cache"  # a new worker is picked up at once
    assert "script-src 'self'" in answer.headers["content-security-policy"]


def test_the_lobby_offers_notifications_to_a_player_with_an_identity(
    new_page: Any, live_server: LiveServer
) -> None:
    made = httpx.post(f"{live_server.url}/api/players", json={"name": "Ada"}).json()
    page = new_page(name="Ada", permissions=["notifications"])
    identity = json.dumps(json.dumps({"id": made["player_id"], "secret": made["secret"]}))
    page.context.add_init_script(f"localStorage.setItem('ttt.identity', {identity})")
    page.goto("/")
    toggle = page.locator(".identity-card .push-toggle")
    expect(toggle).to_have_text("Notify me when it is my move")
    expect(toggle).to_have_attribute("aria-pressed", "false")
