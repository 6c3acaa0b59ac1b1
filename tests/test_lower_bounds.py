"""The lower bounds pyproject.toml declares are versions the server runs on.

The project is installed into a new virtual environment with every runtime dependency
pinned to its declared minimum (``pip install --constraint``, the way an operator's
resolver may pick them), then ``tictactoe serve --workers 2`` on Redis is started from
there, outside the checkout: it must get ready, play a move over a WebSocket, and stop
with SIGINT's status. A bound lower than what the code needs fails here (uvicorn 0.30
once did: an import that only uvicorn 0.50 has). Slow: a few minutes for the install.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import httpx
import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version
from websockets.asyncio.client import connect

from tests.support.redis_server import free_port
from tests.support.waiting import eventually

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]

pytestmark = [pytest.mark.slow, pytest.mark.redis, pytest.mark.timeout(900)]


def minimums() -> dict[str, str]:
    """Each runtime dependency's declared lower bound (``>=``), by name."""
    found: dict[str, str] = {}
    for text in PROJECT["dependencies"]:
        requirement = Requirement(text)
        (lower,) = [s.version for s in requirement.specifier if s.operator == ">="]
        found[canonicalize_name(requirement.name)] = lower
    return found


def test_every_runtime_dependency_has_a_lower_bound() -> None:
    assert set(minimums()) == {
        canonicalize_name(Requirement(text).name) for text in PROJECT["dependencies"]
    }


@pytest.fixture(scope="module")
def lowest(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A virtual environment with the project on its dependencies' lowest versions."""
    where = tmp_path_factory.mktemp("lowest")
    pins = where / "minimums.txt"
    pins.write_text("".join(f"{name}=={version}\n" for name, version in minimums().items()))
    venv = where / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=120)
    done = subprocess.run(
        [str(venv / "bin" / "pip"), "install", "-q", "--constraint", str(pins), str(ROOT)],
        capture_output=True,
        text=True,
        timeout=800,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return venv


def test_the_server_runs_on_the_lowest_versions(lowest: Path, redis_url: str) -> None:
    frozen = subprocess.run(
        [str(lowest / "bin" / "pip"), "freeze"], capture_output=True, text=True, check=True
    ).stdout
    versions: dict[str, str] = {
        canonicalize_name(name): version
        for name, _, version in (line.partition("==") for line in frozen.splitlines())
    }
    for name, version in minimums().items():
        assert Version(versions.get(name, "0")) == Version(version), (name, versions.get(name))
    port = free_port()
    log = lowest.parent / "serve.log"
    with log.open("wb") as output:
        server = subprocess.Popen(
            [
                str(lowest / "bin" / "tictactoe"), "serve", "--workers", "2",
                "--redis-url", redis_url, "--port", str(port),
            ],
            cwd=lowest.parent,  # not the checkout: the installed package only
            stdout=output, stderr=subprocess.STDOUT,
            env={**os.environ, "PYTHONPATH": ""},
        )  # fmt: skip
    try:
        asyncio.run(_play(f"127.0.0.1:{port}", server, log))
        # both workers serving: uvicorn 0.30 logs a CancelledError traceback for a worker
        # stopped at the very end of its startup (0.54 does not: test_serve_supervision)
        deadline = time.monotonic() + 60
        while log.read_text().count(" serves, ") < 2:
            assert time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.1)
        server.send_signal(signal.SIGINT)
        assert server.wait(timeout=60) == 130, log.read_text()[-3000:]
    finally:
        if server.poll() is None:
            server.kill()
            server.wait(timeout=30)
    text = log.read_text()
    assert "Traceback" not in text and "leaked" not in text, text[-3000:]


async def _play(address: str, server: subprocess.Popen[bytes], log: Path) -> None:
    async def ready() -> bool:
        assert server.poll() is None, log.read_text()[-3000:]
        async with httpx.AsyncClient() as http:
            return (await http.get(f"http://{address}/readyz", timeout=5)).status_code == 200

    await eventually(ready, "the server ready", timeout=120, ignoring=(httpx.HTTPError,))
    async with httpx.AsyncClient() as http:
        created = await http.post(f"http://{address}/api/rooms", json={}, timeout=15)
    assert created.status_code == 201, created.text
    room_id = created.json()["room_id"]
    url = f"ws://{address}/ws/{room_id}"
    async with connect(url, proxy=None) as x, connect(url, proxy=None) as o:
        for ws, name in ((x, "Ada"), (o, "Grace")):
            await ws.send(json.dumps({"type": "join", "as": "player", "name": name}))
            welcome = json.loads(await asyncio.wait_for(ws.recv(), 20))
            assert welcome["type"] == "welcome", welcome
        move = {"type": "move", "row": 1, "col": 1, "version": welcome["version"], "move_id": "m1"}
        await x.send(json.dumps(move))
        while True:
            answer = json.loads(await asyncio.wait_for(x.recv(), 20))
            if answer["type"] in {"move_ok", "error"}:
                break
        assert answer["type"] == "move_ok", answer
