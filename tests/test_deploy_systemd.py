"""deploy/tictactoe.service: ``systemd-analyze verify`` accepts it, its ``ExecStart`` is a
command line ``tictactoe serve`` accepts, and the server it starts stops on the unit's
SIGTERM within ``TimeoutStopSec`` with a status the unit counts as a success."""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest

from cli import build_parser
from cli.serve import settings_from_args
from server.guards.capacity import FD_MARGIN
from server.settings import Settings
from tests.support.deploy import ROOT
from tests.support.redis_server import free_port

UNIT = ROOT / "deploy" / "tictactoe.service"
INSTALLED = "/opt/tictactoe/bin/tictactoe"
"""Where the unit expects the command (a virtual environment at /opt/tictactoe)."""
ANALYZE = shutil.which("systemd-analyze")


def directives() -> dict[str, list[str]]:
    """Each ``Key=value`` of the unit (a key may repeat), by key."""
    found: dict[str, list[str]] = {}
    for raw in UNIT.read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith(("#", ";", "[")):
            key, _, value = line.partition("=")
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def one(key: str) -> str:
    (value,) = directives()[key]
    return value


def exec_start() -> list[str]:
    return shlex.split(one("ExecStart"))


def local_command() -> str:
    """This environment's ``tictactoe`` (the unit's path exists only once installed)."""
    found = Path(sys.executable).with_name("tictactoe")
    assert found.exists(), f"no tictactoe beside {sys.executable}: install the project"
    return str(found)


@pytest.mark.process
@pytest.mark.skipif(
    ANALYZE is None,
    reason="no systemd-analyze binary (Debian: apt-get install systemd); the unit's "
    "directives are still checked by the other tests here",
)
def test_the_unit_passes_systemd_analyze_verify(tmp_path: Path) -> None:
    assert ANALYZE is not None
    # verify checks that ExecStart's binary exists: this environment's stands in for it
    unit = tmp_path / "tictactoe.service"
    unit.write_text(UNIT.read_text().replace(INSTALLED, local_command()))
    done = subprocess.run(
        [ANALYZE, "verify", "--man=no", str(unit)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    assert "tictactoe.service" not in output, output  # no warning about the unit either


def test_the_units_directives_fit_the_server() -> None:
    assert exec_start()[0] == INSTALLED
    assert one("KillMode") == "mixed"  # SIGTERM to the supervisor; it stops its workers
    assert one("KillSignal") == "SIGTERM"
    assert one("Restart") == "on-failure"
    assert "2" in one("RestartPreventExitStatus").split()  # a bad setting: no restart loop
    assert {"130", "143"} <= set(one("SuccessExitStatus").split())
    needed = Settings().max_connections + FD_MARGIN  # per worker process
    assert int(one("LimitNOFILE")) >= needed
    assert 10 <= int(one("TimeoutStopSec").removesuffix("s")) <= 120
    assert "ExecReload" not in directives()  # SIGHUP is not a reload: documented
    assert "PrivateTmp" in directives()  # the metrics directory goes to /tmp


def test_the_units_command_line_is_one_serve_accepts() -> None:
    command = exec_start()
    assert command[1] == "serve"
    args = build_parser().parse_args(command[1:])  # exits 2 on an unknown flag
    settings = settings_from_args(args)
    assert settings.host == "127.0.0.1"  # behind the balancer, not on every interface
    assert settings.log_format == "json"
    assert settings.metrics_address.startswith("127.0.0.1:")


@pytest.mark.process
def test_the_units_command_stops_on_sigterm_with_a_success_status(tmp_path: Path) -> None:
    command = [local_command(), *exec_start()[1:]]
    port, metrics = free_port(), free_port()
    command[command.index("--port") + 1] = str(port)
    command[command.index("--metrics-address") + 1] = f"127.0.0.1:{metrics}"
    log = tmp_path / "serve.log"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TICTACTOE_", "REDIS_URL"))}
    with log.open("wb") as out:
        process = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env={**env, "PYTHONUNBUFFERED": "1"}
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, log.read_text()
            try:
                if httpx.get(f"http://127.0.0.1:{port}/readyz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, log.read_text()
            time.sleep(0.1)
        scraped = httpx.get(f"http://127.0.0.1:{metrics}/metrics", timeout=10)
        assert scraped.status_code == 200
        assert "tictactoe_build_info" in scraped.text
        started = time.monotonic()
        process.send_signal(signal.SIGTERM)  # KillMode=mixed: the main process only
        status = process.wait(timeout=int(one("TimeoutStopSec").removesuffix("s")))
        assert time.monotonic() - started < int(one("TimeoutStopSec").removesuffix("s"))
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(timeout=10)
    # systemd's clean ends: 0, death by SIGHUP, SIGINT, SIGTERM or SIGPIPE, and the unit's own
    clean_signals = (signal.SIGHUP, signal.SIGINT, signal.SIGTERM, signal.SIGPIPE)
    successes = {0, *(-s for s in clean_signals), *map(int, one("SuccessExitStatus").split())}
    assert status in successes, (status, log.read_text())
