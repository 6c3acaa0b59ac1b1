"""What the Web Push browser tests share: the service worker's registration and DevTools
session, a push handed to it as a push service would hand it to Chromium, and the
notifications it shows."""

from __future__ import annotations

import json
from typing import Any

from rooms.push import Notice

NOTIFICATIONS = """async () => {
  const registration = await navigator.serviceWorker.ready;
  return (await registration.getNotifications()).map(
    (n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data && n.data.url}));
}"""


def registered_worker(page: Any) -> tuple[Any, str]:
    """Register /sw.js from the page (again, when the page did); the DevTools session and
    the registration's id."""
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


def _same(notes: list[dict[str, Any]], expected: list[dict[str, Any]]) -> bool:
    """Whether ``notes`` are ``expected``, in any order."""

    def key(note: dict[str, Any]) -> str:
        return json.dumps(note, sort_keys=True)

    return sorted(map(key, notes)) == sorted(map(key, expected))


def delivered_and_shown(
    page: Any,
    cdp: Any,
    origin: str,
    registration: str,
    payload: dict[str, Any],
    expected: list[dict[str, Any]],
) -> None:
    """Hand ``payload`` to the browser (``deliver``), then wait until the notifications
    shown are ``expected`` (bounded: 4 deliveries, 3 s after each).

    Chromium sometimes drops a push DevTools hands to a running, activated worker (about
    one run in five of the lobby test with both cores busy; the same push handed over again
    is shown), so the stand-in hands it over again as a push service keeps a message until
    the browser takes it. A copy cannot hide a wrong notification: it carries the room's
    tag, so it replaces the first."""
    notes: list[dict[str, Any]] = []
    for _ in range(4):
        deliver(cdp, origin, registration, payload)
        for _ in range(150):
            notes = page.evaluate(NOTIFICATIONS)
            if _same(notes, expected):
                return
            page.wait_for_timeout(20)
    raise AssertionError(f"expected {expected}, have {notes}")


def note_of(notice: Notice) -> dict[str, Any]:
    url = f"/r/{notice.room_id}"
    return {"title": notice.title, "body": notice.body, "tag": f"room:{notice.room_id}", "url": url}


def deliver(cdp: Any, origin: str, registration: str, payload: dict[str, Any]) -> None:
    """What a push service does once the server's message reached it: hand it to Chromium."""
    message = {"origin": origin, "registrationId": registration}
    cdp.send("ServiceWorker.deliverPushMessage", message | {"data": json.dumps(payload)})
