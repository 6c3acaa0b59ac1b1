"""The first-paint bench runs end to end (a real server behind the delaying proxy, real
Chromium) and reports its figures; the proxy carries bytes intact both ways and counts them.
No figure is judged against a time: the figures go to docs/performance.md."""

from __future__ import annotations

import json
import socket
import socketserver
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bench.delay_proxy import DelayProxy

ROOT = Path(__file__).resolve().parents[2]


class _Echo(socketserver.BaseRequestHandler):
    def handle(self) -> None:
        while data := self.request.recv(65536):
            self.request.sendall(data.upper())


@pytest.fixture
def echo_port() -> Iterator[int]:
    server = socketserver.ThreadingTCPServer(("127.0.0.1", 0), _Echo)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def _exchange(port: int, payload: bytes) -> bytes:
    with socket.create_connection(("127.0.0.1", port), timeout=10) as conn:
        conn.sendall(payload)
        conn.shutdown(socket.SHUT_WR)
        received = b""
        while chunk := conn.recv(65536):
            received += chunk
        return received


def test_the_proxy_carries_every_byte_in_order_and_counts_them(echo_port: int) -> None:
    payload = b"".join(b"move %d;" % i for i in range(20_000))  # several reads' worth
    with DelayProxy("127.0.0.1", echo_port, delay=0.01) as proxy:
        assert _exchange(proxy.port, payload) == payload.upper()
        assert _exchange(proxy.port, b"ping") == b"PING"
        seen = proxy.reset()
        assert seen.connections == 2
        assert seen.up == seen.down == len(payload) + 4
        assert proxy.reset().connections == 0  # counting starts again


@pytest.mark.process
@pytest.mark.slow
@pytest.mark.parametrize("front", [[], ["--h2"]], ids=["http1", "h2-haproxy"])
def test_one_run_reports_the_lobby_and_the_game_page(front: list[str]) -> None:
    command = [sys.executable, "-m", "bench.first_paint", "--runs", "1", "--delay-ms", "20"]
    done = subprocess.run(
        [*command, *front, "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=240,
        check=True,
    )
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["runs"] == 1 and report["gzip"] is True and report["delay_ms"] == 20
    assert report["h2"] is bool(front)
    for key in ("lobby_ms", "invite_ms", "seated_ms", "reload_ms", "reseated_ms", "revisit_ms"):
        assert 0 < report[key]["p50"] <= report[key]["max"]
    # the page came through the proxy, and a revisit fetches less than the first visit
    assert report["lobby_kib"] > 0 and report["lobby_connections"] >= 1
    assert report["revisit_kib"] < report["lobby_kib"]
