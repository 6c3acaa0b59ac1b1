"""``tictactoe serve``: starts a real server process, and refuses what it cannot do."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from cli import build_parser
from cli.serve import settings_from_args
from server import Settings, create_app
from server.fastpath import RawSend
from server.fastpath.collector import YOUNG_THRESHOLD
from tests.support.server_process import Fleet

ROOT = Path(__file__).resolve().parents[2]


def serve(*flags: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli", "serve", *flags],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
    )


@pytest.mark.process
def test_an_unknown_store_url_fails_clearly_without_its_password() -> None:
    for result in (
        serve("--redis-url", "postgres://user:hunter2@db/rooms"),
        serve(env={"REDIS_URL": "mongodb://user:hunter2@db"}),
    ):
        assert result.returncode == 2
        assert "unknown store URL" in result.stderr and "hunter2" not in result.stderr
        assert "serving" not in result.stdout


@pytest.mark.process
def test_memory_store_refuses_several_workers() -> None:
    result = serve("--workers", "2")
    assert result.returncode == 2
    assert "--workers 2" in result.stderr and "in-memory store" in result.stderr


@pytest.mark.process
def test_a_missing_static_directory_fails_in_one_line() -> None:
    result = serve(env={"TICTACTOE_STATIC_DIR": "/nonexistent"})
    assert result.returncode == 2
    (line,) = result.stderr.strip().splitlines()
    assert "TICTACTOE_STATIC_DIR: '/nonexistent' is not a directory" in line
    assert "serving" not in result.stdout


def test_the_client_is_served_from_the_checkout_s_static_folder() -> None:
    # installed from a wheel, the same default is server/client/ (tests/test_packaging.py)
    assert Settings().static_dir == ROOT / "static"


@pytest.mark.process
def test_bad_flags_are_named() -> None:
    result = serve("--port", "70000")
    assert result.returncode == 2
    assert "--port (TICTACTOE_PORT): must be at most 65535" in result.stderr
    result = serve("--allowed-origins", "nonsense")
    assert result.returncode == 2 and "--allowed-origins" in result.stderr


@pytest.mark.process
def test_presence_flags_are_documented_and_checked() -> None:
    shown = serve("--help")
    assert shown.returncode == 0
    assert "--lease-ttl" in shown.stdout and "--sweep-interval" in shown.stdout
    result = serve("--lease-ttl", "0")
    assert result.returncode == 2
    assert "--lease-ttl (TICTACTOE_LEASE_TTL): must be a number above 0" in result.stderr
    result = serve("--sweep-interval", "-1")
    assert result.returncode == 2 and "--sweep-interval" in result.stderr


def _serve_settings(*flags: str) -> Settings:
    return settings_from_args(build_parser().parse_args(["serve", *flags]))


def test_no_fastpath_is_read_from_the_flag_or_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name in ("TICTACTOE_FASTPATH", "TICTACTOE_TUNE_GC"):
        monkeypatch.delenv(name, raising=False)
    on = _serve_settings()
    assert on.fastpath is True and on.tune_gc is True
    off = _serve_settings("--no-fastpath")
    assert off.fastpath is False and off.tune_gc is False  # the GC tuning goes with it
    monkeypatch.setenv("TICTACTOE_FASTPATH", "false")
    assert _serve_settings().fastpath is False and _serve_settings().tune_gc is False
    monkeypatch.setenv("TICTACTOE_TUNE_GC", "1")  # asked for on its own: kept
    assert _serve_settings("--no-fastpath").tune_gc is True
    monkeypatch.setenv("TICTACTOE_FASTPATH", "1")
    assert _serve_settings().fastpath is True
    assert _serve_settings("--no-fastpath").fastpath is False  # the flag wins


@pytest.mark.process
def test_a_bad_fastpath_variable_fails_clearly() -> None:
    result = serve(env={"TICTACTOE_FASTPATH": "maybe"})
    assert result.returncode == 2 and "serving" not in result.stdout
    assert "cannot read 'maybe' from TICTACTOE_FASTPATH" in result.stderr
    shown = serve("--help")
    assert "--no-fastpath" in shown.stdout


def test_without_the_fastpath_the_app_runs_on_plain_starlette_and_redis_py() -> None:
    from rooms.backends.redis.batch import AutoPipeline, DirectCalls

    url = "redis://127.0.0.1:1/0"  # never connected: the app is only built
    for fastpath in (True, False):
        app = create_app(Settings(store_url=url, fastpath=fastpath))
        middleware: list[object] = [m.cls for m in app.user_middleware]
        assert (RawSend in middleware) is fastpath
        backend = app.state.tictactoe.backend
        calls = (backend.store.calls, backend.registry.calls)
        kind = AutoPipeline if fastpath else DirectCalls
        assert all(isinstance(made, kind) for made in calls), calls
        assert backend.bus.options.auto_pipeline is fastpath


@pytest.mark.process
def test_serve_prints_the_url_and_answers(fleet: Fleet) -> None:
    server = fleet.launch()
    server.wait_ready()
    assert any(
        f"serving on {server.url}" in line and "memory://" in line
        for line in server.log.splitlines()
    ), server.log
    response = httpx.get(f"{server.url}/healthz", timeout=5)
    assert response.json() == {"status": "ok"}
    created = httpx.post(f"{server.url}/api/rooms", json={}, timeout=5)
    assert created.status_code == 201
    # Ctrl-C: a clean shutdown, the conventional status
    assert server.stop() == 130, server.log_tail()
    assert "Traceback" not in server.log


def _stats_of_serve(
    fleet: Fleet, *flags: str, env: dict[str, str] | None = None
) -> dict[str, object]:
    """GET /api/stats from a real ``tictactoe serve`` started with ``flags``."""
    server = fleet.launch(*flags, env=env)
    server.wait_ready()
    response = httpx.get(f"{server.url}/api/stats", timeout=5)
    server.stop()
    assert response.status_code == 200
    body = response.json()
    assert isinstance(body, dict)
    return body


@pytest.mark.process
def test_serve_tunes_the_garbage_collector_unless_told_not_to(fleet: Fleet) -> None:
    tuned = _stats_of_serve(fleet)["gc"]
    assert isinstance(tuned, dict)
    assert tuned["frozen"] > 10_000  # the startup heap: modules, classes, functions
    # CPython's own young collections only in a burst between two ticks
    assert tuned["threshold"][:2] == [YOUNG_THRESHOLD, 10]
    assert tuned["threshold"][2] > 10**6  # full collections only when the heap has grown
    assert len(tuned["collections"]) == 3
    assert tuned["young_every"] == 0.05 and tuned["full_on_growth"] == 0
    assert isinstance(tuned["young_ticks"], int) and tuned["blocks_after_full"] > 0
    for untuned in (
        _stats_of_serve(fleet, "--no-tune-gc")["gc"],
        _stats_of_serve(fleet, env={"TICTACTOE_TUNE_GC": "0"})["gc"],
    ):
        assert isinstance(untuned, dict)
        assert untuned["frozen"] == 0
        assert untuned["threshold"] == [700, 10, 10]  # CPython's defaults
        assert "young_ticks" not in untuned
