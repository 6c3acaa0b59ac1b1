"""``tictactoe serve``: starts a real server process, and refuses what it cannot do."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

from server import Settings
from server.cli.serve import uvicorn_options
from server.collector import YOUNG_THRESHOLD
from server.uvicorn_protocols import ReleasingWebSockets, UpgradeReleasingHttpTools

ROOT = Path(__file__).resolve().parents[2]


def serve(*flags: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.cli", "serve", *flags],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
    )


def test_an_unknown_store_url_fails_clearly_without_its_password() -> None:
    for result in (
        serve("--redis-url", "postgres://user:hunter2@db/rooms"),
        serve(env={"REDIS_URL": "mongodb://user:hunter2@db"}),
    ):
        assert result.returncode == 2
        assert "unknown store URL" in result.stderr and "hunter2" not in result.stderr
        assert "serving" not in result.stdout


def test_memory_store_refuses_several_workers() -> None:
    result = serve("--workers", "2")
    assert result.returncode == 2
    assert "--workers 2" in result.stderr and "in-memory store" in result.stderr


def test_bad_flags_are_named() -> None:
    result = serve("--port", "70000")
    assert result.returncode == 2 and "--port: must be at most 65535" in result.stderr
    result = serve("--allowed-origins", "nonsense")
    assert result.returncode == 2 and "--allowed-origins" in result.stderr


def test_presence_flags_are_documented_and_checked() -> None:
    shown = serve("--help")
    assert shown.returncode == 0
    assert "--lease-ttl" in shown.stdout and "--sweep-interval" in shown.stdout
    result = serve("--lease-ttl", "0")
    assert result.returncode == 2 and "--lease-ttl: must be a number above 0" in result.stderr
    result = serve("--sweep-interval", "-1")
    assert result.returncode == 2 and "--sweep-interval" in result.stderr


def test_uvicorn_options_pick_fast_implementations_without_compression() -> None:
    options = uvicorn_options(Settings(max_frame_bytes=8192, ping_interval=7.0))
    # uvicorn's sans-I/O and httptools protocols, which free a connection once it ends
    assert options["ws"] is ReleasingWebSockets
    assert issubclass(options["ws"], WebSocketsSansIOProtocol)
    assert options["http"] is UpgradeReleasingHttpTools
    assert issubclass(options["http"], HttpToolsProtocol)
    assert options["ws_per_message_deflate"] is False
    assert options["ws_max_size"] == 8192 and options["ws_ping_interval"] == 7.0
    assert options["loop"] in {"uvloop", "asyncio"}


def test_uvicorn_options_fall_back_to_uvicorn_s_names_without_the_sans_io_protocol(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An older uvicorn (no sans-I/O implementation): its own protocols by name, and the
    module that subclasses both is not needed."""
    import uvicorn.config

    older = {k: v for k, v in uvicorn.config.WS_PROTOCOLS.items() if k != "websockets-sansio"}
    monkeypatch.setattr(uvicorn.config, "WS_PROTOCOLS", older)
    options = uvicorn_options(Settings())
    assert options["http"] == "httptools" and options["ws"] == "websockets"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def first_answer(port: int, path: str) -> httpx.Response:
    """GET ``path`` on the server starting at ``port``, once it answers (30 s at most)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            return httpx.get(f"http://127.0.0.1:{port}{path}", timeout=5)
        except httpx.TransportError:
            assert time.monotonic() < deadline, "the server never answered"
            time.sleep(0.05)


def test_serve_prints_the_url_and_answers() -> None:
    port = free_port()
    with subprocess.Popen(
        [
            sys.executable,
            "-m",
            "server.cli",
            "serve",
            "--port",
            str(port),
            "--log-level",
            "warning",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    ) as process:
        try:
            assert process.stdout is not None
            line = process.stdout.readline()
            assert f"serving on http://127.0.0.1:{port}" in line and "memory://" in line
            response = first_answer(port, "/healthz")
            assert response.json() == {"status": "ok"}
            created = httpx.post(f"http://127.0.0.1:{port}/api/rooms", json={}, timeout=5)
            assert created.status_code == 201
        finally:
            process.send_signal(signal.SIGINT)
            try:
                _, errors = process.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                raise
    assert process.returncode == 130  # Ctrl-C: a clean shutdown, the conventional status
    assert "Traceback" not in errors


def _stats_of_serve(*flags: str, env: dict[str, str] | None = None) -> dict[str, object]:
    """GET /api/stats from a real ``tictactoe serve`` started with ``flags``."""
    port = free_port()
    with subprocess.Popen(
        [
            sys.executable,
            "-m",
            "server.cli",
            "serve",
            "--port",
            str(port),
            "--log-level",
            "warning",
            *flags,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
    ) as process:
        try:
            response = first_answer(port, "/api/stats")
        finally:
            process.send_signal(signal.SIGINT)
            try:
                process.communicate(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                raise
    assert response.status_code == 200
    body = response.json()
    assert isinstance(body, dict)
    return body


def test_serve_tunes_the_garbage_collector_unless_told_not_to() -> None:
    tuned = _stats_of_serve()["gc"]
    assert isinstance(tuned, dict)
    assert tuned["frozen"] > 10_000  # the startup heap: modules, classes, functions
    # CPython's own young collections only in a burst between two ticks
    assert tuned["threshold"][:2] == [YOUNG_THRESHOLD, 10]
    assert tuned["threshold"][2] > 10**6  # full collections only when the heap has grown
    assert len(tuned["collections"]) == 3
    assert tuned["young_every"] == 0.05 and tuned["full_on_growth"] == 0
    assert isinstance(tuned["young_ticks"], int) and tuned["blocks_after_full"] > 0
    for untuned in (
        _stats_of_serve("--no-tune-gc")["gc"],
        _stats_of_serve(env={"TICTACTOE_TUNE_GC": "0"})["gc"],
    ):
        assert isinstance(untuned, dict)
        assert untuned["frozen"] == 0
        assert untuned["threshold"] == [700, 10, 10]  # CPython's defaults
        assert "young_ticks" not in untuned
