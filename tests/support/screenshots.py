"""Screenshots of every page state, on desktop (1280x800) and phone (390x844), in the light
and the dark theme, from a real server and Debian's Chromium:

    .venv/bin/python -m tests.support.screenshots            # into artifacts/screenshots/
    .venv/bin/python -m tests.support.screenshots --readme   # and the README's two pictures

Each state is reached as a person would reach it (the lobby, an invite, a game played move by
move, a rematch asked, a tournament created); a file is
``{state}-{desktop|phone}-{light|dark}.png``, the whole page. ``--readme`` also writes
docs/screenshots/game-desktop.png (a game in progress) and docs/screenshots/win-phone.png
(the same game won, on a phone), light.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import expect, sync_playwright

from bench.browser import CHROMIUM, CHROMIUM_ARGS
from server import Settings
from tests.e2e.browser_helpers import cell, expect_cell
from tests.support.live_server import LiveServer

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "artifacts" / "screenshots"
README_DIR = ROOT / "docs" / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
SIZES = {"desktop": DESKTOP, "phone": PHONE}
SCHEMES = ("light", "dark")
NEXT_FRAME = "() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))"
X_WINS = [(1, 1), (2, 1), (1, 2), (2, 2), (1, 3)]  # X wins on the top row (cells from 1)


class Shots:
    """Opens browser contexts on the live server and writes the pictures of one state."""

    def __init__(self, browser: Any, base: str, out: Path) -> None:
        self.browser, self.base, self.out = browser, base, out
        self.contexts: list[Any] = []
        self.written: list[Path] = []

    def page(self, name: str | None = None, *, phone: bool = False) -> Any:
        options: dict[str, Any] = {
            "viewport": PHONE if phone else DESKTOP,
            "base_url": self.base,
            "reduced_motion": "reduce",  # the pictures show the end state of every animation
        }
        if phone:
            options.update(is_mobile=True, has_touch=True)
        context = self.browser.new_context(**options)
        self.contexts.append(context)
        if name is not None:
            stored = json.dumps(json.dumps(name))
            context.add_init_script(f"localStorage.setItem('ttt.name', {stored})")
        return context.new_page()

    def shoot(
        self, page: Any, state: str, *, sizes: tuple[str, ...] = ("desktop", "phone")
    ) -> None:
        before = page.viewport_size
        page.mouse.move(0, 0)  # no hover preview left under the last click
        for size in sizes:
            page.set_viewport_size(SIZES[size])
            for scheme in SCHEMES:
                page.emulate_media(color_scheme=scheme)
                page.evaluate(NEXT_FRAME)
                path = self.out / f"{state}-{size}-{scheme}.png"
                page.screenshot(path=str(path), full_page=True, animations="disabled")
                self.written.append(path)
        page.emulate_media(color_scheme="light")
        page.set_viewport_size(before)
        page.evaluate(NEXT_FRAME)

    def room(self, rules: dict[str, Any] | None = None, **options: Any) -> str:
        body = {"rules": rules or {}, "public": options.pop("public", False), **options}
        response = httpx.post(f"{self.base}/api/rooms", json=body, timeout=10)
        response.raise_for_status()
        room_id: str = response.json()["room_id"]
        return room_id

    def close(self) -> None:
        for context in self.contexts:
            context.close()
        self.contexts.clear()


def seat(page: Any, room: str, mark: str) -> Any:
    page.goto(f"/r/{room}")
    page.get_by_role("button", name=f"Join as {mark}", exact=True).click()
    expect(page.locator(".role-badge")).to_have_text(f"You play {mark}")
    return page


def play(x: Any, o: Any, cells: list[tuple[int, int]]) -> None:
    for i, (row, col) in enumerate(cells):
        page, other = (x, o) if i % 2 == 0 else (o, x)
        cell(page, row, col).click()
        expect_cell(other, row, col, "X" if i % 2 == 0 else "O")


def lobby(s: Shots) -> None:
    s.room({"rows": 6, "cols": 7, "k": 4, "gravity": True}, public=True)
    page = s.page("Ada")
    page.goto("/")
    expect(page.locator(".room-item")).to_have_count(1)
    s.shoot(page, "lobby")
    page.get_by_text("Custom game", exact=True).click()
    s.shoot(page, "lobby-custom")


def classic_game(s: Shots, readme: bool) -> None:
    room = s.room(time_control={"initial": 300, "increment": 3})
    ada = seat(s.page("Ada"), room, "X")
    s.shoot(ada, "waiting")
    bob = s.page("Bob")
    bob.goto(f"/r/{room}")
    expect(bob.get_by_role("button", name="Join as O", exact=True)).to_be_visible()
    s.shoot(bob, "invite")
    bob.get_by_role("button", name="Join as O", exact=True).click()
    expect(ada.locator(".status-line")).to_have_text("Your move")
    play(ada, bob, X_WINS[:4])
    watcher = s.page()
    watcher.goto(f"/r/{room}/watch")
    expect(watcher.locator(".role-badge")).to_have_text("Spectating")
    s.shoot(ada, "game")
    s.shoot(watcher, "spectator")
    if readme:
        ada.screenshot(path=str(README_DIR / "game-desktop.png"), full_page=True)
    cell(bob, 3, 3).click(force=True)  # out of turn: a premove
    expect(bob.locator(".cell.premove")).to_have_count(1)
    s.shoot(bob, "premove")
    bob.keyboard.press("Escape")
    expect(bob.locator(".cell.premove")).to_have_count(0)
    play(ada, bob, X_WINS[4:])
    expect(ada.locator(".banner-title")).to_have_text("You won!")
    s.shoot(ada, "won")
    s.shoot(bob, "lost")
    s.shoot(watcher, "finished-spectator")
    if readme:
        ada.set_viewport_size(PHONE)
        ada.evaluate(NEXT_FRAME)
        ada.screenshot(path=str(README_DIR / "win-phone.png"), full_page=True)
        ada.set_viewport_size(DESKTOP)
    bob.locator(".banner").get_by_role("button", name="Rematch", exact=True).click()
    expect(ada.locator(".banner")).to_contain_text("wants a rematch")
    s.shoot(ada, "rematch-offered")
    ada.locator(".banner").get_by_role("button", name="Accept rematch", exact=True).click()
    expect(ada.locator(".role-badge")).to_have_text("You play O")
    s.shoot(ada, "rematch")


def boards(s: Shots) -> None:
    for state, rules, moves in (
        ("connect-four", {"rows": 6, "cols": 7, "k": 4, "gravity": True}, [(6, 4), (6, 3), (5, 4)]),
        ("gomoku", {"rows": 15, "cols": 15, "k": 5}, [(8, 8), (7, 9), (8, 9)]),
        ("cube", {"rows": 4, "cols": 4, "k": 4, "layers": 4}, []),
    ):
        room = s.room(rules, time_control={"initial": 600, "increment": 5})
        x = seat(s.page("Ada"), room, "X")
        o = seat(s.page("Bob"), room, "O")
        if moves:
            play(x, o, moves)
        s.shoot(o, state)
    room = s.room({"rows": 15, "cols": 15, "k": 5})
    xena = seat(s.page("Xena", phone=True), room, "X")
    seat(s.page("Otto"), room, "O")
    cell(xena, 8, 8).tap()
    xena.get_by_role("button", name="Zoom").tap()
    frame = xena.locator(".board-frame")
    expect(frame).to_have_class("board-frame zoomed")
    frame.evaluate("f => { f.scrollLeft = f.scrollWidth; f.scrollTop = f.scrollHeight; }")
    s.shoot(xena, "gomoku-zoomed", sizes=("phone",))


def bot_game(s: Shots) -> None:
    room = s.room(bot="bot:medium", bot_mark="O")
    page = s.page("Ada")
    page.goto(f"/r/{room}")
    page.get_by_role("button", name="Join as X", exact=True).click()
    expect(page.locator(".role-badge")).to_have_text("You play X")
    cell(page, 2, 2).click()
    expect(page.locator(".status-line")).to_have_text("Your move")
    s.shoot(page, "bot-game")


def other_pages(s: Shots) -> None:
    ada = s.page("Ada")
    ada.goto("/tournaments")
    ada.get_by_role("textbox", name="Tournament name").fill("Club night")
    ada.get_by_role("button", name="Create tournament", exact=True).click()
    expect(ada).to_have_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    s.shoot(ada, "tournament")
    ada.goto("/tournaments")
    expect(ada.locator(".tournament-item")).to_have_count(1)
    s.shoot(ada, "tournaments")
    ada.goto("/leaderboards/classic/untimed")
    expect(ada.get_by_role("heading", level=1)).to_be_visible()
    s.shoot(ada, "leaderboard")


SCENES: dict[str, Callable[[Shots, bool], None]] = {
    "lobby": lambda s, _readme: lobby(s),
    "classic": classic_game,
    "boards": lambda s, _readme: boards(s),
    "bot": lambda s, _readme: bot_game(s),
    "pages": lambda s, _readme: other_pages(s),
}


@contextmanager
def live_server() -> Iterator[LiveServer]:
    fast: dict[str, Any] = {"leave_grace": 2.0, "bot_budget": 0.3, "bot_pool": "thread"}
    known = {f.name for f in dataclasses.fields(Settings)}
    settings = Settings(static_dir=ROOT / "static", **{k: v for k, v in fast.items() if k in known})
    live = LiveServer(settings).start()
    try:
        yield live
    finally:
        live.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=OUT, help="where the pictures go")
    parser.add_argument("--readme", action="store_true", help="also the README's two")
    parser.add_argument("--only", choices=sorted(SCENES), action="append", help="some scenes")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    with live_server() as live, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        shots = Shots(browser, live.url, args.out)
        try:
            for name in args.only or SCENES:
                SCENES[name](shots, args.readme)
                shots.close()
        finally:
            shots.close()
            browser.close()
    for path in shots.written:
        print(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
