"""``tictactoe serve`` exits non-zero with one line when it cannot start, whatever the
worker count; ``--wait-for-redis`` rides out a store that comes up late; unknown
``TICTACTOE_*`` variables are warned about once."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support.redis_server import RedisServer, free_port
from tests.support.server_process import Fleet
from tests.support.waiting import eventually_sync

ROOT = Path(__file__).resolve().parents[2]


def serve(*flags: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "cli", "serve", "--port", str(free_port()), *flags],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, **(env or {})},
    )


@pytest.mark.process
@pytest.mark.parametrize("workers", ["1", "2"])
def test_an_unreachable_store_fails_at_once_in_one_line(workers: str) -> None:
    url = f"redis://127.0.0.1:{free_port()}/0"
    began = time.monotonic()
    result = serve("--workers", workers, "--redis-url", url)
    assert result.returncode == 1, result.stderr
    assert time.monotonic() - began < 20
    (line,) = result.stderr.strip().splitlines()
    assert line.startswith(f"tictactoe serve: error: cannot reach the store {url}: ")
    assert "serving on" not in result.stdout


@pytest.mark.process
def test_a_bad_log_level_exits_2_in_one_line() -> None:
    for result in (
        serve("--log-level", "verbose"),
        serve(env={"TICTACTOE_LOG_LEVEL": "verbose"}),
    ):
        assert result.returncode == 2
        (line,) = result.stderr.strip().splitlines()
        assert "--log-level (TICTACTOE_LOG_LEVEL): must be one of debug, info," in line


@pytest.mark.process
def test_workers_that_fail_to_start_make_the_supervisor_fail() -> None:
    """Past the parent's check (the store went away before the workers reached it), the
    exit status still says a worker did not start."""
    script = (
        "import sys\n"
        "from server import Settings\n"
        "from server.launch import uvicorn_options\n"
        "from server.launch.workers import run_workers\n"
        "from server.logs import log_config\n"
        f"settings = Settings(port={free_port()})\n"
        "sys.exit(run_workers(2, log_config('warning'), uvicorn_options(settings)))\n"
    )
    store = f"redis://127.0.0.1:{free_port()}/0"
    result = subprocess.run(
        [sys.executable, "-c", script],
        check=False,
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "TICTACTOE_STORE_URL": store},
    )
    assert result.returncode == 1, result.stderr
    assert "did not start: stopping the others" in result.stderr


@pytest.mark.process
def test_wait_for_redis_rides_out_a_store_that_starts_late(
    fleet: Fleet, own_redis_server: RedisServer
) -> None:
    own_redis_server.kill()
    server = fleet.launch("--wait-for-redis", "60", store_url=own_redis_server.url)
    eventually_sync(lambda: "does not answer yet" in server.log, "a first retry", timeout=30)
    assert server.alive
    own_redis_server.start()
    assert server.wait_ready()["status"] == "ready"


@pytest.mark.process
def test_an_unknown_variable_is_warned_about_once(fleet: Fleet, redis_url: str) -> None:
    server = fleet.launch("--workers", "2", store_url=redis_url, env={"TICTACTOE_TUNE_GCC": "0"})
    server.wait_ready()
    assert server.stop() == 130, server.log_tail()  # Ctrl-C, with two workers as with one
    warned = [line for line in server.log.splitlines() if "TICTACTOE_TUNE_GCC" in line]
    assert len(warned) == 1, server.log
    assert "WARNING" in warned[0] and "did you mean TICTACTOE_TUNE_GC?" in warned[0]


@pytest.mark.process
def test_an_unreachable_sentinel_is_named_without_any_secret() -> None:
    """The password in the login and in the query (``sentinel_password``) are both masked
    in the one line that says the store cannot be reached."""
    url = (
        f"redis+sentinel://ada:LOGINSECRET@127.0.0.1:{free_port()}/svc/0"
        "?sentinel_password=QUERYSECRET&prefix=t"
    )
    result = serve("--workers", "2", "--redis-url", url)
    assert result.returncode == 1, result.stderr
    (line,) = result.stderr.strip().splitlines()
    assert "cannot reach the store redis+sentinel://ada:***@127.0.0.1:" in line
    assert "sentinel_password=***&prefix=t" in line
    assert "SECRET" not in result.stderr + result.stdout
