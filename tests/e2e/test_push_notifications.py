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
from tests.support.live_server import LiveServer

pytestmark = pytest.mark.e2e

NOTIFICATIONS = """async () => {
  const registration = await navigator.serviceWorker.ready;
  return (await registration.getNotifications()).map(
    (n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url}));
}"""


def registered_worker(page: Any) -> tuple[Any, str]:
    """Register /sw.js from the page; the DevTools session and the registration's id."""
    page.evaluate(
        """async () => {
          await navigator.serviceWorker.register('/sw.js', {scope: '/'});
          await navigator.serviceWorker.ready;
        }"""
    )
    cdp = page.context.new_cdp_session(page)
    found: list[str] = []

    def updated(event: dict[str, Any]) -> None:
        found.extend(r["registrationId"] for r in event["registrations"] if not r.get("isDeleted"))

    cdp.on("ServiceWorker.workerRegistrationUpdated", updated)
    cdp.send("ServiceWorker.enable")
    for _ in range(500):  # the event comes with enable's answer or just after it
        if found:
            break
        page.wait_for_timeout(20)
    assert found, "no service worker registration was reported"
    return cdp, found[0]


def shown(page: Any, expected: list[dict[str, Any]]) -> None:
    """Wait until the notifications shown are ``expected``, in any order (bounded)."""

    def key(note: dict[str, Any]) -> str:
        return json.dumps(note, sort_keys=True)

    notes: list[dict[str, Any]] = []
    for _ in range(500):
        notes = page.evaluate(NOTIFICATIONS)
        if sorted(map(key, notes)) == sorted(map(key, expected)):
            return
        page.wait_for_timeout(20)
    raise AssertionError(f"expected {expected}, have {notes}")


def note_of(notice: Notice) -> dict[str, Any]:
    url = f"/r/{notice.room_id}"
    return {"title": notice.title, "body": notice.body, "tag": f"room:{notice.room_id}", "url": url}


def deliver(cdp: Any, origin: str, registration: str, notice: Notice) -> None:
    """What a push service does once the server's message reached it: hand it to Chromium."""
    message = {"origin": origin, "registrationId": registration}
    cdp.send("ServiceWorker.deliverPushMessage", message | {"data": json.dumps(notice.payload())})


def test_the_service_worker_shows_each_push_one_per_room(
    new_page: Any, live_server: LiveServer
) -> None:
    page = new_page(permissions=["notifications"])
    page.goto("/")
    cdp, registration = registered_worker(page)
    turn = Notice("p1", "q7m2kx9c", NoticeKind.TURN, "Your move", "Against Ada, move 4.", 7)
    ended = Notice("p1", "q7m2kx9c", NoticeKind.ENDED, "You won", "Against Ada: time.", 9)
    deliver(cdp, live_server.url, registration, turn)
    shown(page, [note_of(turn)])
    deliver(cdp, live_server.url, registration, ended)
    shown(page, [note_of(ended)])  # the room's tag: the end replaces the turn
    other = Notice("p1", "b8k2m4x7", NoticeKind.TURN, "Your move", "Against Bob, move 1.", 3)
    deliver(cdp, live_server.url, registration, other)
    shown(page, [note_of(ended), note_of(other)])  # another room: beside it


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
