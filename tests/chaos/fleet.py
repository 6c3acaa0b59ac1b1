"""Real ``tictactoe serve`` processes for the multi-worker chaos tests.

Each ``ServerProcess`` is ``python -m server.cli serve`` on a free loopback port with the
given store URL, its output in a log file (a pipe nobody reads could fill up and stall the
server), stopped by its pid: SIGINT for uvicorn's graceful shutdown, SIGKILL when a test
kills it or the shutdown hangs. A ``Fleet`` starts several at once and stops whatever is
left at teardown. Every wait is bounded; none is a measurement.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Protocol

import httpx

from tests.support.redis_server import free_port

__all__ = [
    "WAIT",
    "Endpoint",
    "Fleet",
    "LocalProcess",
    "ServerProcess",
    "create_room",
    "snapshot",
]

ROOT = Path(__file__).resolve().parents[2]
WAIT = 30.0
FAST_CLIENTS = ("--rate", "1000", "--burst", "1000")
"""The chaos clients send faster than a person; the default rate limit would refuse them."""


class Endpoint(Protocol):
    """Where clients connect: a server process, or a load balancer in front of some."""

    @property
    def url(self) -> str: ...

    def ws(self, room_id: str) -> str: ...

    @property
    def alive(self) -> bool: ...


class LocalProcess:
    """A process serving on a loopback ``port``: its URLs, and whether it still runs."""

    port: int
    process: subprocess.Popen[bytes]

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, room_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/{room_id}"

    @property
    def alive(self) -> bool:
        return self.process.poll() is None


class ServerProcess(LocalProcess):
    def __init__(self, store_url: str, log_dir: Path, *flags: str) -> None:
        self.port = free_port()
        self.log_path = log_dir / f"serve-{self.port}.log"
        log_dir.mkdir(parents=True, exist_ok=True)
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "server.cli",
                    "serve",
                    "--port",
                    str(self.port),
                    "--redis-url",
                    store_url,
                    "--log-level",
                    "warning",
                    *FAST_CLIENTS,
                    *flags,
                ],
                cwd=ROOT,
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )

    def __repr__(self) -> str:
        return f"<serve :{self.port} pid {self.process.pid}>"

    def log_tail(self, lines: int = 20) -> str:
        with contextlib.suppress(OSError):
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        return ""

    def wait_ready(self) -> dict[str, Any]:
        deadline = time.monotonic() + WAIT
        while time.monotonic() < deadline:
            if not self.alive:
                raise AssertionError(
                    f"{self} exited with {self.process.returncode}:\n{self.log_tail()}"
                )
            with contextlib.suppress(httpx.HTTPError):
                response = httpx.get(f"{self.url}/readyz", timeout=5)
                if response.status_code == 200:
                    ready: dict[str, Any] = response.json()
                    return ready
            time.sleep(0.05)
        raise AssertionError(f"{self} did not become ready:\n{self.log_tail()}")

    async def readyz(self) -> tuple[int, dict[str, Any]]:
        async with httpx.AsyncClient() as http:
            response = await http.get(f"{self.url}/readyz", timeout=15)
        body: dict[str, Any] = response.json()
        return response.status_code, body

    def kill(self) -> None:
        """kill -9: no shutdown, no Leave for its connections; the sockets just die."""
        if self.alive:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=WAIT)

    def stop(self) -> None:
        if self.alive:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()


class Fleet:
    """Server processes of one test, all stopped at teardown."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.servers: list[ServerProcess] = []

    def start(self, store_url: str, count: int, *flags: str) -> list[ServerProcess]:
        started = [ServerProcess(store_url, self.log_dir, *flags) for _ in range(count)]
        self.servers.extend(started)  # registered first: stopped even if one never gets ready
        for server in started:
            server.wait_ready()
        return started

    def alive(self) -> list[ServerProcess]:
        return [server for server in self.servers if server.alive]

    def stop(self) -> None:
        for server in self.servers:
            server.stop()


async def create_room(server: Endpoint, rules: dict[str, Any], *, public: bool) -> str:
    async with httpx.AsyncClient() as http:
        response = await http.post(
            f"{server.url}/api/rooms", json={"rules": rules, "public": public}, timeout=15
        )
    assert response.status_code == 201, response.text
    room_id: str = response.json()["room_id"]
    return room_id


async def snapshot(server: Endpoint, room_id: str) -> dict[str, Any]:
    async with httpx.AsyncClient() as http:
        response = await http.get(f"{server.url}/api/rooms/{room_id}", timeout=15)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body
