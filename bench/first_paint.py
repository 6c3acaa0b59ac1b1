"""First paint on a long network in real Chromium: how soon the lobby and a game page are
usable behind a link that delays every byte by ``--delay-ms`` each way.

    .venv/bin/python -m bench.first_paint [--delay-ms 250] [--runs 5] [--h2] [--no-gzip] [--json]

Starts ``tictactoe serve`` (in memory) on a free loopback port, a delaying TCP proxy in front
of it (bench/delay_proxy.py: the delay each way, and one round trip per new connection, as a
TCP handshake costs), and headless Chromium (Debian's /usr/bin/chromium, the flags of
tests/e2e). Each run opens a fresh browser context (an empty cache) and loads, through the
proxy:

- the lobby, usable when its one-click pairings are there and enabled;
- the lobby again in the same context (a revisit: the cache revalidates with ETags);
- in another fresh context, a game page (``/r/{id}``, a room created beforehand: an invite
  link opened by someone new), usable when its invite card is there with the stored name in
  it and "Join as X" can be pressed; then it is pressed at once, and the page is
  seated when the server has seated it ("You play X") and the board's cells are drawn;
- the seated player then reloads the page: when the board is drawn (from the room the page
  carries), and when the seat is resumed (the server's ``welcome``).

With ``--h2`` the proxy is in front of HAProxy terminating TLS with HTTP/2
(bench/tls_front.py), as a deployment puts it: one connection carries every file at once.

Times are from the navigation's start (``performance.now()`` in the page), so they include
every round trip the page makes: the HTML, its modules, the API call, the WebSocket.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import sys
import urllib.parse
import urllib.request
from collections.abc import Sequence
from typing import Any

from bench.browser import CHROMIUM, CHROMIUM_ARGS, create_room, percentile
from bench.delay_proxy import DelayProxy
from bench.load.launch import CONFIGS, launch
from bench.tls_front import TlsFront

__all__ = ["main", "run"]

WAIT_MS = 60_000  # a bound against hangs, not a measurement
LOBBY_USABLE = """() => {
  const b = document.querySelector('.pairing');
  return b && !b.disabled ? performance.now() : false;
}"""
INVITE_USABLE = """() => {
  const name = document.querySelector('.name-form input[name="name"]');
  const join = document.querySelector('.name-form button[type="submit"]');
  return name && name.value && join && !join.disabled && join.offsetParent
    ? performance.now() : false;
}"""
BOARD_DRAWN = """() => document.querySelector('.board .cell') ? performance.now() : false"""
SEATED = """() => {
  const seated = document.querySelector('.role-badge')?.textContent === 'You play X';
  return seated && document.querySelector('.board .cell') ? performance.now() : false;
}"""


def _usable_after(page: Any, url: str, condition: str) -> float:
    """Milliseconds from the navigation's start until ``condition`` holds."""
    page.goto(url, wait_until="commit", timeout=WAIT_MS)
    handle = page.wait_for_function(condition, polling="raf", timeout=WAIT_MS)
    return float(handle.json_value())


def _one_run(browser: Any, proxy: DelayProxy, server_url: str, gzip: bool) -> dict[str, Any]:
    def fresh_page() -> tuple[Any, Any]:
        context = browser.new_context(
            viewport={"width": 1280, "height": 800},
            ignore_https_errors=True,  # the HTTP/2 front's throwaway certificate
            extra_http_headers={} if gzip else {"accept-encoding": "identity"},
        )
        context.add_init_script("localStorage.setItem('ttt.name', JSON.stringify('Ada'))")
        return context, context.new_page()

    context, page = fresh_page()
    try:
        proxy.reset()
        lobby = _usable_after(page, f"{proxy.url}/", LOBBY_USABLE)
        lobby_traffic = proxy.reset()
        revisit = _usable_after(page, f"{proxy.url}/", LOBBY_USABLE)
        revisit_traffic = proxy.reset()
    finally:
        context.close()
    room = urllib.parse.quote(create_room(server_url))
    context, page = fresh_page()  # an invite link opened by someone new: an empty cache
    try:
        invite = _usable_after(page, f"{proxy.url}/r/{room}", INVITE_USABLE)
        page.locator(".name-form button[type=submit]").click()  # at once: the name prefilled
        seated = float(page.wait_for_function(SEATED, polling="raf", timeout=WAIT_MS).json_value())
        # the seated player reloads: the board is back from the page itself, the seat after
        reload = _usable_after(page, f"{proxy.url}/r/{room}", BOARD_DRAWN)
        reseated = float(
            page.wait_for_function(SEATED, polling="raf", timeout=WAIT_MS).json_value()
        )
    finally:
        context.close()
    return {
        "lobby_ms": lobby,
        "invite_ms": invite,
        "seated_ms": seated,
        "reload_ms": reload,
        "reseated_ms": reseated,
        "revisit_ms": revisit,
        "lobby_kib": lobby_traffic.down / 1024,
        "lobby_connections": lobby_traffic.connections,
        "revisit_kib": revisit_traffic.down / 1024,
        "revisit_connections": revisit_traffic.connections,
    }


def run(delay_ms: float, runs: int, *, gzip: bool = True, h2: bool = False) -> dict[str, Any]:
    """``runs`` cold loads of each page behind ``delay_ms`` each way; p50 and worst."""
    from playwright.sync_api import sync_playwright  # the browser half of the test extras

    if not os.access(CHROMIUM, os.X_OK):
        raise RuntimeError(f"{CHROMIUM} is missing")
    server = launch("server", CONFIGS["memory"], None)
    samples: list[dict[str, Any]] = []
    try:
        port = urllib.parse.urlsplit(server.url).port
        assert port is not None
        with contextlib.ExitStack() as stack:
            if h2:
                port = stack.enter_context(TlsFront(port)).port
            scheme = "https" if h2 else "http"
            proxy = stack.enter_context(DelayProxy("127.0.0.1", port, delay_ms / 1000, scheme))
            pw = stack.enter_context(sync_playwright())
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            try:
                for _ in range(runs):
                    samples.append(_one_run(browser, proxy, server.url, gzip))
            finally:
                browser.close()
    finally:
        server.stop()

    def figures(key: str) -> dict[str, float]:
        values = [s[key] for s in samples]
        return {"p50": round(percentile(values, 0.5), 1), "max": round(max(values), 1)}

    return {
        "delay_ms": delay_ms,
        "runs": runs,
        "gzip": gzip,
        "h2": h2,
        "lobby_ms": figures("lobby_ms"),
        "invite_ms": figures("invite_ms"),
        "seated_ms": figures("seated_ms"),
        "reload_ms": figures("reload_ms"),
        "reseated_ms": figures("reseated_ms"),
        "revisit_ms": figures("revisit_ms"),
        "lobby_kib": round(samples[-1]["lobby_kib"], 1),
        "lobby_connections": samples[-1]["lobby_connections"],
        "revisit_kib": round(samples[-1]["revisit_kib"], 1),
        "revisit_connections": samples[-1]["revisit_connections"],
        "host": f"{platform.system()} {platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.first_paint", description=__doc__)
    parser.add_argument("--delay-ms", type=float, default=250.0, help="delay each way (ms)")
    parser.add_argument("--runs", type=int, default=5, help="cold loads of each page")
    parser.add_argument(
        "--no-gzip", action="store_true", help="ask for identity encoding (to compare)"
    )
    parser.add_argument(
        "--h2", action="store_true", help="behind HAProxy with TLS and HTTP/2 (as deployed)"
    )
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    if args.runs < 1 or args.delay_ms < 0:
        parser.error("--runs must be at least 1 and --delay-ms at least 0")
    result = run(args.delay_ms, args.runs, gzip=not args.no_gzip, h2=args.h2)
    if args.json:
        print(json.dumps(result))
        return 0
    rtt = 2 * result["delay_ms"]
    print(
        f"first paint behind {result['delay_ms']:.0f} ms each way (RTT {rtt:.0f} ms), "
        f"{result['runs']} runs, gzip {'on' if result['gzip'] else 'off'}, "
        f"{'HTTP/2 over TLS' if result['h2'] else 'HTTP/1.1'} ({result['host']})"
    )
    for key, label in (
        ("lobby_ms", "lobby usable (cold)"),
        ("invite_ms", "invite page usable"),
        ("seated_ms", "seated (Join at once)"),
        ("reload_ms", "reload: board drawn"),
        ("reseated_ms", "reload: seat resumed"),
        ("revisit_ms", "lobby usable (revisit)"),
    ):
        f = result[key]
        print(
            f"  {label:24} p50 {f['p50']:7.1f} ms  max {f['max']:7.1f} ms  "
            f"({f['p50'] / rtt:.1f} RTT)"
        )
    print(
        f"  lobby: {result['lobby_kib']} KiB down over {result['lobby_connections']} "
        f"connections; revisit {result['revisit_kib']} KiB over "
        f"{result['revisit_connections']} new connections"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
