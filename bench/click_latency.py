"""Click latency in real Chromium: from a player's click to the piece on their own board, and
to the piece on the opponent's board, for the first move of a page visit (cold) and the
moves after it (warm), with sound on as a player has it by default.

    .venv/bin/python -m bench.click_latency [--games 10] [--warmup 1] [--no-sound] [--json]

Starts ``tictactoe serve`` (in memory) on a free loopback port and two headless Chromium pages
(Debian's /usr/bin/chromium, the flags of tests/e2e), seated as X and O in a new room each
game; they play a fixed five-move win, every move a real click. In the page, the click's time
is the ``pointerdown`` event's timestamp and the piece's is taken by a MutationObserver on the
board when the piece's element is added (the DOM is updated; the paint follows in the next
frame). Both pages run on this machine, so ``performance.timeOrigin + performance.now()`` is
one clock for both. The first ``--warmup`` games are played but not counted.

Each game is a fresh visit of both pages (a new document, loaded from the browser's cache): its
first move, X's, is the **cold** one, the first click of the visit, when the page has made no
audio context yet (on X's board) and hears its first cue (on O's); the other four are **warm**.
``--no-sound`` turns the pages' sound off (the switch, remembered in localStorage) to compare.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from collections.abc import Sequence
from typing import Any

from bench.browser import CHROMIUM, CHROMIUM_ARGS, create_room, percentile
from bench.load.launch import CONFIGS, launch

__all__ = ["main", "run"]

WAIT_MS = 15_000  # a bound against hangs, not a measurement
# X b2, O a1, X b1, O c3, X b3: X wins on the b column. (row, col), 1-based as the labels.
MOVES = [("X", 2, 2), ("O", 1, 1), ("X", 1, 2), ("O", 3, 3), ("X", 3, 2)]

# Installed in each page once its board exists: the board's pieces as they are added, and the
# clicks on it, both on the shared clock. (Every expression given to the page is a function:
# the page's CSP refuses `eval`, which Playwright uses for a bare expression.)
WATCH = """() => {
  const now = () => performance.timeOrigin + performance.now();
  window.__seen = {};
  window.__clicks = [];
  const board = document.querySelector(".board");
  board.addEventListener("pointerdown", (e) => {
    const cell = e.target.closest(".cell");
    const t = performance.timeOrigin + e.timeStamp;
    if (cell) window.__clicks.push({ key: cell.dataset.key, t });
  }, { capture: true });
  new MutationObserver((records) => {
    const t = now();
    for (const r of records) for (const node of r.addedNodes) {
      if (!(node instanceof Element) || !node.matches(".piece:not(.ghost):not(.queued)")) continue;
      const cell = node.closest(".cell");
      if (cell && !(cell.dataset.key in window.__seen)) window.__seen[cell.dataset.key] = t;
    }
  }).observe(board, { childList: true, subtree: true });
}"""


def _seat(page: Any, base: str, room: str, mark: str) -> None:
    """Take the seat as an invited person: the page asks for the name (the stored one)."""
    page.goto(f"{base}/r/{room}")
    page.get_by_role("button", name=f"Join as {mark}", exact=True).click(timeout=WAIT_MS)
    page.wait_for_function(
        f"() => document.querySelector('.role-badge')?.textContent === 'You play {mark}'",
        timeout=WAIT_MS,
    )
    page.evaluate(WATCH)


def _key(row: int, col: int) -> str:
    return f"0:{row - 1}:{col - 1}"  # cellKey in static/js/model/board.js: layer:row:col, 0-based


def _play_game(pages: dict[str, Any], base: str) -> list[tuple[float, float]]:
    """One game; per move (ms): (click → own board, click → opponent's board); the first is
    the visit's cold move."""
    room = create_room(base)
    _seat(pages["X"], base, room, "X")
    _seat(pages["O"], base, room, "O")
    pages["X"].wait_for_function(
        "() => document.querySelector('.status-line')?.textContent === 'Your move'",
        timeout=WAIT_MS,
    )
    samples = []
    for mark, row, col in MOVES:
        mover, other = pages[mark], pages["O" if mark == "X" else "X"]
        key = _key(row, col)
        mover.wait_for_function(
            f"() => document.querySelector('.cell[data-key=\"{key}\"]')"
            "?.classList.contains('playable')",
            timeout=WAIT_MS,
        )
        mover.locator(f'.board .cell[data-key="{key}"]').click()
        seen = f"() => window.__seen['{key}'] !== undefined"
        mover.wait_for_function(seen, timeout=WAIT_MS)
        other.wait_for_function(seen, timeout=WAIT_MS)
        clicks = [c["t"] for c in mover.evaluate("window.__clicks") if c["key"] == key]
        clicked = clicks[-1]
        own = mover.evaluate(f"window.__seen['{key}']") - clicked
        theirs = other.evaluate(f"window.__seen['{key}']") - clicked
        samples.append((own, theirs))
    return samples


def _spread(values: list[float]) -> dict[str, float]:
    return {"p50": round(percentile(values, 0.5), 1), "p99": round(percentile(values, 0.99), 1)}


def summarize(games: list[list[tuple[float, float]]]) -> dict[str, Any]:
    """The figures of ``games`` (each a list of (own, opponent) ms per move, in order): the
    first move of each is cold, the rest warm."""
    cold = [game[0] for game in games if game]
    warm = [move for game in games for move in game[1:]]
    if not cold or not warm:
        raise ValueError("need games of at least two moves")
    return {
        "moves": len(warm),
        "own_ms": _spread([own for own, _ in warm]),
        "opponent_ms": _spread([theirs for _, theirs in warm]),
        "cold": {
            "moves": len(cold),
            "own_ms": _spread([own for own, _ in cold]),
            "opponent_ms": _spread([theirs for _, theirs in cold]),
        },
    }


def run(games: int, warmup: int, *, sound: bool = True) -> dict[str, Any]:
    """Play ``warmup + games`` games; the figures of the last ``games``."""
    from playwright.sync_api import sync_playwright  # the browser half of the test extras

    if not os.access(CHROMIUM, os.X_OK):
        raise RuntimeError(f"{CHROMIUM} is missing")
    server = launch("server", CONFIGS["memory"], None)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            pages = {}
            for mark, name in (("X", "Ada"), ("O", "Grace")):
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                context.add_init_script(
                    f"localStorage.setItem('ttt.name', {json.dumps(json.dumps(name))});"
                    f"localStorage.setItem('ttt.pref.sound', {json.dumps(json.dumps(sound))})"
                )
                pages[mark] = context.new_page()
            played: list[list[tuple[float, float]]] = []
            started = time.monotonic()
            for game in range(warmup + games):
                moves = _play_game(pages, server.url)
                if game >= warmup:
                    played.append(moves)
            wall = time.monotonic() - started
            browser.close()
    finally:
        server.stop()
    return {
        "games": games,
        "warmup": warmup,
        "sound": sound,
        **summarize(played),
        "wall_s": round(wall, 1),
        "load_average": [round(load, 2) for load in os.getloadavg()],
        "host": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.click_latency", description=__doc__)
    parser.add_argument("--games", type=int, default=10, help="games counted (5 moves each)")
    parser.add_argument("--warmup", type=int, default=1, help="games played first, not counted")
    parser.add_argument(
        "--no-sound", action="store_true", help="the pages' sound off (it is on by default)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.games < 1 or args.warmup < 0:
        parser.error("--games must be at least 1 and --warmup at least 0")
    result = run(args.games, args.warmup, sound=not args.no_sound)
    if args.json:
        print(json.dumps(result))
        return 0
    cold = result["cold"]
    print(
        f"click latency, sound {'on' if result['sound'] else 'off'}, {result['games']} games: "
        f"{cold['moves']} cold first moves, {result['moves']} warm "
        f"({result['host']}; load average {result['load_average'][0]})"
    )
    for label, figures in (("cold", cold), ("warm", result)):
        for side, key in (("own board     ", "own_ms"), ("opponent board", "opponent_ms")):
            p50, p99 = figures[key]["p50"], figures[key]["p99"]
            print(f"  {label}: click → {side}  p50 {p50:7.1f} ms   p99 {p99:7.1f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
