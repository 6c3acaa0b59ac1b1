"""The game viewer framed by another site, in real Chromium: a page on another origin puts
in the ``<iframe>`` that ``/api/oembed`` answers, and the frame shows the finished game, steps
through it and analyses a position (server/web/embed_page.py, static/js/pages/embed.js)."""

from __future__ import annotations

import asyncio
import http.server
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.conftest import SCREENSHOTS
from tests.support.games import top_row_win
from tests.support.live_server import LiveServer

pytestmark = pytest.mark.e2e


def _finished_game(live: LiveServer) -> str:
    """A room whose game Ada (X) won on the top row against Grace (O), played over the real
    WebSocket in a thread of its own (this thread's loop belongs to Playwright)."""
    made: list[str] = []

    async def play() -> None:
        made.append(await top_row_win(live))

    thread = threading.Thread(target=asyncio.run, args=(play(),))
    thread.start()
    thread.join(30)
    assert made, "the game was not played"
    return made[0]


@pytest.fixture
def other_site() -> Iterator[dict[str, Any]]:
    """A plain web server on another port (so another origin) that serves ``site["html"]``."""
    site: dict[str, Any] = {"html": ""}

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = site["html"].encode()
            self.send_response(200)
            self.send_header("content-type", "text/html; charset=utf-8")
            self.send_header("content-length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: Any) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    site["url"] = f"http://127.0.0.1:{server.server_address[1]}/"
    try:
        yield site
    finally:
        server.shutdown()
        server.server_close()


def test_another_site_frames_the_game_and_steps_through_it(
    new_page: Any, live_server: LiveServer, other_site: dict[str, Any]
) -> None:
    room = _finished_game(live_server)
    answer = httpx.get(
        f"{live_server.url}/api/oembed", params={"url": f"{live_server.url}/r/{room}"}
    ).json()
    record = httpx.get(f"{live_server.url}/api/rooms/{room}/record.txt").text
    other_site["html"] = f"<!doctype html><title>A blog</title><h1>Look</h1>{answer['html']}"

    page = new_page()
    page.goto(other_site["url"])
    frame = page.frame_locator("iframe")
    viewer = frame.locator(".embed")
    expect(viewer).to_be_visible()
    game_id = viewer.get_attribute("data-game-id")
    assert game_id and f'[GameId "{game_id}"]' in record
    expect(frame.locator(".embed-players")).to_contain_text("Ada (X) vs Grace (O)")

    def marks() -> list[str]:
        pieces = frame.locator(".board .cell")
        return [
            pieces.nth(i).locator(".piece:not(.ghost)").get_attribute("data-mark")
            if pieces.nth(i).locator(".piece:not(.ghost)").count()
            else ""
            for i in range(pieces.count())
        ]

    # served at the first move, as a replay starts; the bar and the moves step through
    expect(frame.locator(".embed-result")).to_have_text("Move 0 of 5")
    assert marks() == [""] * 9
    frame.get_by_role("button", name="Latest move").click()
    expect(frame.locator(".embed-result")).to_contain_text("Ada (X) won")
    assert marks() == ["X", "X", "X", "O", "O", "", "", "", ""]
    frame.get_by_role("button", name="Previous move").click()
    expect(frame.locator(".embed-result")).to_have_text("Move 4 of 5")
    assert marks() == ["X", "X", "", "O", "O", "", "", "", ""]
    frame.get_by_role("button", name="First move").click()
    frame.get_by_role("button", name="Next move").click()
    frame.get_by_role("button", name="Next move").click()
    expect(frame.locator(".embed-result")).to_have_text("Move 2 of 5")
    page.keyboard.press("ArrowRight")  # the keys step too, once the frame has the focus
    expect(frame.locator(".embed-result")).to_have_text("Move 3 of 5")
    page.keyboard.press("ArrowRight")

    # the analysis weighs the position shown (server-side solver, from inside the frame):
    # X to move at move 4 wins at once on the top row's last cell
    frame.get_by_role("switch", name="Analysis").click()
    expect(frame.locator(".board .cell[data-key='0:0:2'] .eval")).to_have_text("W1")
    expect(frame.locator(".board .cell .eval")).to_have_count(5)  # every empty cell
    frame_box = page.locator("iframe").bounding_box()
    board_box = frame.locator(".board").bounding_box()
    assert board_box["y"] + board_box["height"] <= frame_box["y"] + frame_box["height"]
    viewer_fits = frame.locator("body").evaluate(
        "b => document.documentElement.scrollHeight <= innerHeight"
    )
    assert viewer_fits, "the viewer needs no scrolling in the frame oEmbed sizes"
    page.screenshot(path=str(SCREENSHOTS / "embed-framed-desktop.png"))
