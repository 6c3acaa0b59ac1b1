"""Fixtures for the browser tests: a real server, a real headless Chromium, guarded pages.

The server is the real app under a real uvicorn on a free loopback port (``LiveServer``
from tests/support/live_server.py) serving the real ``static/``. Chromium is Debian's
``/usr/bin/chromium`` driven by Playwright's sync API; Playwright never downloads a
browser. Every page is guarded: a request to any host but the loopback server is aborted
and fails the test, and so does an uncaught script error or a console error.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import os
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from bench.browser import CHROMIUM, CHROMIUM_ARGS
from server import Settings
from tests.support.live_server import LiveServer

ROOT = Path(__file__).resolve().parents[2]

playwright_sync = pytest.importorskip("playwright.sync_api")

STATIC = ROOT / "static"
SCREENSHOTS = ROOT / "artifacts" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
LOOPBACK = {"127.0.0.1", "localhost", "::1"}
NEXT_FRAME = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
EXPECT_TIMEOUT = 10_000  # ms: a bound against hangs on a loaded machine, not a measurement

playwright_sync.expect.set_options(timeout=EXPECT_TIMEOUT)


# Shorter lifecycle waits than the defaults, so claims and bot replies come quickly (only
# the settings this server knows; the browser reads the room's own from its snapshot).
FAST = {"leave_grace": 2.0, "bot_budget": 0.3, "bot_pool": "thread"}


def fast_settings(**changes: Any) -> Settings:
    known = {f.name for f in dataclasses.fields(Settings)}
    options = {k: v for k, v in {**FAST, **changes}.items() if k in known}
    return Settings(static_dir=STATIC, **options)


@pytest.fixture(scope="module")
def live_server() -> Iterator[LiveServer]:
    live = LiveServer(fast_settings()).start()
    yield live
    live.stop()


class PlaywrightLoop:
    """Playwright's sync API runs its event loop in a greenlet of this thread and marks it
    as running between calls, which would stop every asyncio test that runs after it in the
    same worker process. Kept for the whole session (one Chromium a process, not one a
    module), the mark is set only while a browser test runs: ``resume`` before, ``pause``
    after."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None

    def pause(self) -> None:
        self.loop = asyncio._get_running_loop()
        asyncio._set_running_loop(None)

    def resume(self) -> None:
        asyncio._set_running_loop(self.loop)


@pytest.fixture(scope="session")
def playwright_loop() -> PlaywrightLoop:
    return PlaywrightLoop()


@pytest.fixture(scope="session")
def chromium(playwright_loop: PlaywrightLoop) -> Iterator[Any]:
    """One headless Chromium for every browser test of this worker process: starting one
    takes seconds, a new context per page (``new_page``) keeps the tests apart."""
    if not os.access(CHROMIUM, os.X_OK):
        pytest.skip(f"{CHROMIUM} is missing (./run test installs Debian's chromium)")
    manager = playwright_sync.sync_playwright()
    pw = manager.start()
    try:
        launched = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    except Exception:
        pw.stop()
        asyncio._set_running_loop(None)
        raise
    playwright_loop.pause()
    try:
        yield launched
    finally:
        playwright_loop.resume()
        launched.close()
        pw.stop()
        asyncio._set_running_loop(None)  # leave none behind for the tests after it


@pytest.fixture
def browser(chromium: Any, playwright_loop: PlaywrightLoop) -> Iterator[Any]:
    """The session's Chromium, its loop marked running for this test only."""
    playwright_loop.resume()
    try:
        yield chromium
    finally:
        playwright_loop.pause()


BROWSER_OWN_ERRORS = (
    "Failed to load resource",
    "Chrome currently does not support the Push API in incognito mode",
)


class Guard:
    """What went wrong in the pages of one test: external requests and script errors."""

    def __init__(self) -> None:
        self.external: list[str] = []
        self.errors: list[str] = []

    def console(self, message: Any) -> None:
        # Logged by the browser itself, not by the page: a refused HTTP request (a 404 or 422
        # the test provoked; the tests check that the page shows it), and Chrome's word on a
        # push subscription in a private window (every context here is one), which Chrome
        # gives on purpose no way to detect beforehand. Anything else is a bug.
        if message.type == "error" and not message.text.startswith(BROWSER_OWN_ERRORS):
            self.errors.append(f"console: {message.text}")

    def loopback_only(self, route: Any) -> None:
        """A page's or context's route for every request: the loopback server (and data: and
        blob: URLs) pass, anything else is aborted and kept to fail the test."""
        host = urlsplit(route.request.url).hostname or ""
        if route.request.url.startswith(("data:", "blob:")) or host in LOOPBACK:
            route.continue_()
        else:
            self.external.append(route.request.url)
            route.abort()

    def watch(self, page: Any) -> None:
        """Keep ``page``'s uncaught script errors and console errors."""
        page.on("pageerror", lambda exc: self.errors.append(f"pageerror: {exc}"))
        page.on("console", self.console)

    def check(self) -> None:
        assert not self.external, f"the page asked for non-loopback URLs: {self.external}"
        assert not self.errors, f"script errors in the page: {self.errors}"


@pytest.fixture
def guard() -> Guard:
    return Guard()


@pytest.fixture
def new_page(browser: Any, live_server: LiveServer, guard: Guard) -> Iterator[Callable[..., Any]]:
    """``new_page(viewport=DESKTOP, name=None)``: a page in a fresh browser context (its own
    storage, like another person's browser). ``name`` is stored as the player's name;
    ``base_url``, when given, is where the page's relative URLs go (a proxy to the server)."""
    contexts: list[Any] = []

    def make(
        viewport: dict[str, int] | None = None,
        *,
        name: str | None = None,
        phone: bool = False,
        permissions: list[str] | None = None,
        bypass_csp: bool = False,
        base_url: str | None = None,
    ) -> Any:
        options: dict[str, Any] = {
            "viewport": viewport or (PHONE if phone else DESKTOP),
            "base_url": base_url or live_server.url,  # another: a proxy in front of it
            "device_scale_factor": 2 if phone else 1,
            "reduced_motion": "reduce",
        }
        if phone:
            options.update(is_mobile=True, has_touch=True)
        if permissions:
            options["permissions"] = permissions
        if bypass_csp:  # only to test the guard itself: the page's CSP would stop it first
            options["bypass_csp"] = True
        context = browser.new_context(**options)
        contexts.append(context)

        context.route("**/*", guard.loopback_only)

        def foreign_socket(url: str) -> bool:
            return (urlsplit(url).hostname or "") not in LOOPBACK

        def refuse_socket(ws: Any) -> None:
            guard.external.append(ws.url)
            ws.close(code=1008, reason="test: no external requests")

        context.route_web_socket(foreign_socket, refuse_socket)
        if name is not None:
            stored = json.dumps(json.dumps(name))  # the client keeps the name as JSON
            context.add_init_script(
                f"if (location.protocol === 'http:') localStorage.setItem('ttt.name', {stored})"
            )
        page = context.new_page()
        guard.watch(page)
        return page

    yield make
    for context in contexts:
        context.close()
    guard.check()


@pytest.fixture
def create_room(live_server: LiveServer) -> Callable[..., str]:
    """``create_room(rules, public=False, **options)`` over the real HTTP API (options:
    ``bot``, ``bot_mark``, ``time_control``); returns the room id."""

    def create(rules: dict[str, Any] | None = None, *, public: bool = False, **options: Any) -> str:
        response = httpx.post(
            f"{live_server.url}/api/rooms",
            json={"rules": rules or {}, "public": public, **options},
            timeout=10,
        )
        assert response.status_code == 201, response.text
        room_id: str = response.json()["room_id"]
        return room_id

    return create


@pytest.fixture(scope="session")
def screenshot() -> Callable[..., Path]:
    """``screenshot(page, name)``: the page at desktop and phone width, into
    artifacts/screenshots/{name}-desktop.png and {name}-phone.png."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)

    def shoot(page: Any, name: str, *, sizes: tuple[str, ...] = ("desktop", "phone")) -> Path:
        before = page.viewport_size
        for size in sizes:
            page.set_viewport_size(DESKTOP if size == "desktop" else PHONE)
            page.evaluate(NEXT_FRAME)
            page.screenshot(path=str(SCREENSHOTS / f"{name}-{size}.png"), full_page=True)
        page.set_viewport_size(before)
        return SCREENSHOTS

    return shoot


@pytest.fixture
def js(new_page: Callable[..., Any]) -> Any:
    """Runs an async function body in a fresh page with the client's modules as ``m.<name>``
    (the file's name without its folder: ``m.board`` is ``model/board.js``)."""
    page = new_page()
    page.goto("/")

    def run(body: str) -> Any:
        """Evaluate an async function body with the modules m.<name> imported. The body is
        put into the evaluated source itself: DevTools evaluation is not the page's own
        script, so the page's Content-Security-Policy (no eval) does not apply to it."""
        return page.evaluate(
            """async () => {
                const paths = ["net/socket", "net/protocol", "model/room-state", "model/board",
                               "model/keyboard", "model/rules", "model/text", "model/lifecycle",
                               "model/clock", "model/evaluation", "model/page-memo",
                               "model/move-check", "model/view", "pages/lobby"];
                const m = {};
                for (const path of paths) {
                    const name = path.split("/").pop().replace("-", "_");
                    m[name] = await import(`/js/${path}.js`);
                }
                return await (async () => { BODY })();
            }""".replace("BODY", body)
        )

    return run
