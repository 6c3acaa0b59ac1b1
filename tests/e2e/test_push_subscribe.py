"""Web Push from the browser's side, in real Chromium: the lobby's switch and the game page's
Notify subscribe this browser, the server keeps the subscription, a turn the player misses
reaches the loopback push service signed and encrypted for it, and the service worker shows
what it decrypts to; turning the switch off forgets the browser; a refusal is said.

Chromium refuses the Push API in the private (incognito) contexts the other browser tests
use, so these run in a persistent profile, where the API is there. What cannot run here is
the browser's registration with its push service: Chromium's subscribe() waits on Google's
push service, and this machine has no network. An init script stands in for ONLY that
(``PushManager.prototype.subscribe`` and ``getSubscription``): the subscription it hands the
page is the loopback push service's, with keys the test holds the private halves of, so the
test decrypts what the server sends as the browser would. Everything else is real: the
page's permission request, its calls to the server, the server's push, the service worker.
A notification's click cannot be tested: Chromium opens or focuses a window only for a real
click, which the DevTools protocol cannot make, and a constructed event is refused.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import re
from collections.abc import Callable, Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from bench.browser import CHROMIUM, CHROMIUM_ARGS
from tests.e2e.browser_helpers import cell, seat
from tests.e2e.conftest import DESKTOP, Guard, PlaywrightLoop, fast_settings
from tests.e2e.push_helpers import delivered_and_shown, registered_worker
from tests.support.live_server import LiveServer
from tests.support.loop_thread import LoopThread
from tests.support.push_service import PushService
from tests.support.waiting import eventually_sync
from tests.support.ws_client import Client

pytestmark = pytest.mark.e2e

CONTACT = "mailto:operators@example.org"
HELD = "test.push.held"

# The stand-in for the browser's push-service registration (see the module's docstring). The
# subscription is kept in localStorage as the browser keeps a real one, across pages, with
# the applicationServerKey it was made with (the page compares it with the server's).
STAND_IN = """(() => {
  const offered = SUBSCRIPTION;
  const standIn = (key) => ({
    endpoint: offered.endpoint,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: Uint8Array.from(key).buffer },
    toJSON: () => JSON.parse(JSON.stringify(offered)),
    unsubscribe: async () => { localStorage.removeItem("HELD"); return true; },
  });
  PushManager.prototype.subscribe = async function (options) {
    if (Notification.permission !== "granted") {
      throw new DOMException("Registration failed - permission denied", "NotAllowedError");
    }
    const key = Array.from(new Uint8Array(options.applicationServerKey));
    localStorage.setItem("HELD", JSON.stringify(key));
    return standIn(key);
  };
  PushManager.prototype.getSubscription = async function () {
    const held = localStorage.getItem("HELD");
    return held ? standIn(JSON.parse(held)) : null;
  };
})();""".replace("HELD", HELD)


@pytest.fixture(scope="module")
def live_server() -> Iterator[LiveServer]:
    """This module's server: it takes the loopback push service's http:// endpoints and
    pushes one message at a time."""
    live = LiveServer(
        fast_settings(push_http_endpoints=True, push_contact=CONTACT, push_concurrency=1)
    ).start()
    yield live
    live.stop()


@pytest.fixture(scope="module")
def loop_thread() -> Iterator[LoopThread]:
    thread = LoopThread().start()
    yield thread
    thread.stop()


@pytest.fixture
def push_service(loop_thread: LoopThread, live_server: LiveServer) -> Iterator[PushService]:
    service = loop_thread.run(PushService().start())
    service.vapid_public_key = server_key(live_server)
    yield service
    loop_thread.run(service.stop())


@pytest.fixture(scope="module")
def profile(
    chromium: Any,
    playwright_loop: PlaywrightLoop,
    live_server: LiveServer,
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[Any]:
    """One Chromium with a persistent profile for the module (a launch takes seconds); each
    test clears the origin's storage and service worker first (``push_page``)."""
    playwright_loop.resume()
    try:
        context = chromium.browser_type.launch_persistent_context(
            str(tmp_path_factory.mktemp("profile")),
            executable_path=CHROMIUM,
            args=CHROMIUM_ARGS,
            base_url=live_server.url,
            viewport=DESKTOP,
            reduced_motion="reduce",
        )
    finally:
        playwright_loop.pause()
    yield context
    playwright_loop.resume()
    try:
        context.close()
    finally:
        playwright_loop.pause()


@pytest.fixture
def push_page(
    browser: Any, profile: Any, live_server: LiveServer, guard: Guard
) -> Iterator[Callable[..., Any]]:
    """``push_page(subscriber, allow=True)``: a page of the persistent profile for the
    subscriber's identity, whose push registration hands out the subscriber's subscription;
    ``allow`` grants notifications, else the browser refuses them when asked."""
    pages: list[Any] = []

    def make(subscriber: Subscriber, *, allow: bool = True) -> Any:
        player = subscriber.identity
        profile.clear_permissions()
        if allow:
            profile.grant_permissions(["notifications"], origin=live_server.url)
        page = profile.new_page()
        pages.append(page)
        cdp = profile.new_cdp_session(page)
        cdp.send("Storage.clearDataForOrigin", {"origin": live_server.url, "storageTypes": "all"})
        cdp.detach()
        page.route("**/*", guard.loopback_only)
        identity = json.dumps(json.dumps({"id": player["id"], "secret": player["secret"]}))
        name = json.dumps(json.dumps(player["name"]))
        page.add_init_script(
            f"localStorage.setItem('ttt.identity', {identity});"
            f"localStorage.setItem('ttt.name', {name});"
        )
        page.add_init_script(STAND_IN.replace("SUBSCRIPTION", json.dumps(subscriber.offered)))
        guard.watch(page)
        return page

    yield make
    for page in pages:
        page.close()
    guard.check()


def server_key(live: LiveServer) -> str:
    key: str = httpx.get(f"{live.url}/api/push/key").json()["public_key"]
    return key


def new_identity(live: LiveServer, name: str) -> dict[str, str]:
    made = httpx.post(f"{live.url}/api/players", json={"name": name})
    assert made.status_code == 201, made.text
    return {"id": made.json()["player_id"], "secret": made.json()["secret"], "name": name}


@dataclasses.dataclass(frozen=True)
class Subscriber:
    """A person with an identity on the server (``identity``: id, secret, name) and the
    subscription their browser's push registration hands out (``offered``)."""

    identity: dict[str, str]
    offered: dict[str, Any]
    live: LiveServer
    loop_thread: LoopThread

    def endpoints(self) -> list[str]:
        """The endpoints the server keeps for the identity (its push book, read directly)."""
        book = self.live.app.state.tictactoe.backend.push
        return [s.endpoint for s in self.loop_thread.run(book.of(self.identity["id"]))]


@pytest.fixture
def ada(live_server: LiveServer, push_service: PushService, loop_thread: LoopThread) -> Subscriber:
    """Ada, a new identity, whose browser is offered the push service's subscription "ada"."""
    identity = new_identity(live_server, "Ada")
    return Subscriber(identity, push_service.subscription("ada"), live_server, loop_thread)


def subscribed_with(page: Any) -> str:
    """The applicationServerKey the page subscribed with, base64url as the server gives it."""
    key = bytes(json.loads(page.evaluate(f"localStorage.getItem('{HELD}')")))
    return base64.urlsafe_b64encode(key).rstrip(b"=").decode()


def test_the_lobby_switch_subscribes_and_a_missed_turn_is_pushed_and_shown(
    push_page: Callable[..., Any],
    ada: Subscriber,
    live_server: LiveServer,
    push_service: PushService,
    loop_thread: LoopThread,
    create_room: Callable[..., str],
) -> None:
    page = push_page(ada)
    page.goto("/")
    toggle = page.locator(".identity-card .push-toggle")
    toggle.click()
    expect(toggle).to_have_text("Stop notifications")
    expect(toggle).to_have_attribute("aria-pressed", "true")
    assert subscribed_with(page) == server_key(live_server)
    assert ada.endpoints() == [ada.offered["endpoint"]]

    # Ada plays X, then leaves the game for the lobby; Grace moves while she is away
    room = create_room()
    seat(page, room, "X")
    grace = loop_thread.run(Client.open(live_server, room))
    assert loop_thread.run(grace.join(name="Grace"))["mark"] == "O"
    cell(page, 2, 2).click()
    loop_thread.run(grace.until("moved"))
    page.goto("/")
    loop_thread.run(grace.until("presence", mark="X", connected=False))
    assert loop_thread.run(grace.move(0, 0))["type"] == "move_ok"

    pushed = loop_thread.run(push_service.next())  # VAPID-checked and decrypted
    assert pushed.name == "ada" and pushed.claims["sub"] == CONTACT
    assert pushed.message == {
        "kind": "turn",
        "room_id": room,
        "version": grace.version,
        "title": "Your move",
        "body": "Against Grace, move 3.",
        "url": f"/r/{room}",
        "tag": f"room:{room}",
    }
    loop_thread.run(grace.close())

    # what the push service hands the browser, the service worker shows
    cdp, registration = registered_worker(page)
    note = {"title": "Your move", "body": "Against Grace, move 3.", "tag": f"room:{room}"}
    expected = [note | {"url": f"/r/{room}"}]
    delivered_and_shown(page, cdp, live_server.url, registration, pushed.message, expected)

    # and off again: the server forgets this browser, which unsubscribes
    expect(toggle).to_have_text("Stop notifications")
    toggle.click()
    expect(toggle).to_have_text("Notify me when it is my move")
    expect(page.locator(".identity-status")).to_have_text("Notifications off.")
    assert ada.endpoints() == []
    assert page.evaluate(f"localStorage.getItem('{HELD}')") is None
    assert push_service.refused == []


def test_the_game_pages_notify_switch_subscribes_this_browser_too(
    push_page: Callable[..., Any],
    ada: Subscriber,
    live_server: LiveServer,
    create_room: Callable[..., str],
) -> None:
    page = seat(push_page(ada), create_room(), "X")
    notify = page.get_by_role("button", name="Notify", exact=True)
    notify.click()
    expect(notify).to_have_attribute("aria-pressed", "true")
    # the title says so once the server has the subscription
    expect(notify).to_have_attribute("title", re.compile("with this page closed"))
    assert ada.endpoints() == [ada.offered["endpoint"]]
    assert subscribed_with(page) == server_key(live_server)

    notify.click()
    expect(notify).to_have_attribute("aria-pressed", "false")
    eventually_sync(
        lambda: ada.endpoints() == [],
        "the server forgot the browser",
        pause=lambda seconds: page.wait_for_timeout(seconds * 1000),
    )


def test_a_browser_that_refuses_notifications_is_told_where_to_allow_them(
    push_page: Callable[..., Any], ada: Subscriber
) -> None:
    page = push_page(ada, allow=False)
    page.goto("/")
    page.locator(".identity-card .push-toggle").click()
    expect(page.locator(".identity-status")).to_have_text(
        "This browser blocks notifications from this site: allow them in its settings."
    )
    expect(page.locator(".identity-card .push-toggle")).to_have_count(0)
    assert ada.endpoints() == []


# a browser whose push service never answers: its subscribe() never settles (and says it
# was asked, so that the test moves the clock only once the page waits on it)
SILENT_PUSH_SERVICE = """PushManager.prototype.subscribe = () => {
  window.subscribeAsked = true;
  return new Promise(() => {});
};"""


def test_a_push_service_that_never_answers_is_told_not_waited_on(
    push_page: Callable[..., Any], ada: Subscriber
) -> None:
    page = push_page(ada)
    page.add_init_script(SILENT_PUSH_SERVICE)
    page.clock.install()  # the page's wait for the push service runs on a clock the test moves
    page.goto("/")
    toggle = page.locator(".identity-card .push-toggle")
    toggle.click()
    status = page.locator(".identity-status")
    expect(status).to_have_text("Asking this browser for notifications…")
    expect(toggle).to_be_disabled()  # one request at a time
    page.wait_for_function("() => window.subscribeAsked === true")
    page.clock.run_for(16_000)  # past SUBSCRIBE_WAIT_MS (static/js/net/push.js)
    expect(status).to_have_text(
        "Notifications could not be turned on: "
        "this browser's push service did not answer (is it offline?)."
    )
    expect(toggle).to_be_enabled()
    expect(toggle).to_have_text("Notify me when it is my move")  # still off: try again later
    assert ada.endpoints() == []
