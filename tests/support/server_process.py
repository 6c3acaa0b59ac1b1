"""Real ``tictactoe serve`` processes for tests: free port, readiness, logs, stopped by pid.

A ``ServerProcess`` is ``python -m cli serve`` (or another ``command``: an installed
``tictactoe``) on a free loopback port with the given flags (a store URL, ``--workers``,
...) and environment, its output (stdout and stderr) in a log file: a pipe nobody reads
could fill up and stall the server, and the file is there to read after the process is
gone. ``wait_ready`` polls ``/readyz`` until it answers 200. ``stop`` is SIGINT,
uvicorn's graceful shutdown (SIGKILL when it hangs); ``kill`` is SIGKILL. A ``Fleet``
starts several and stops whatever is left at teardown (the ``fleet`` fixture of
tests/conftest.py). Every wait is bounded; none is a measurement.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

import httpx

from tests.support.redis_server import free_port
from tests.support.waiting import eventually_sync

__all__ = [
    "FAST_CLIENTS",
    "ROOT",
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
"""Test clients send faster than a person; the default rate limit would refuse them."""


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
    """``tictactoe serve --port <free> [--redis-url store_url] *flags``, logging to a file."""

    def __init__(
        self,
        log_dir: Path,
        *flags: str,
        store_url: str | None = None,
        env: Mapping[str, str] | None = None,
        command: Sequence[str] = (sys.executable, "-m", "cli"),
        cwd: Path = ROOT,
        port: int | None = None,
    ) -> None:
        self.port = free_port() if port is None else port  # a port: a restart in its place
        self.log_path = log_dir / f"serve-{self.port}.log"
        log_dir.mkdir(parents=True, exist_ok=True)
        store = ("--redis-url", store_url) if store_url else ()
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [
                    *command,
                    "serve",
                    "--port",
                    str(self.port),
                    *store,
                    "--log-level",
                    "warning",
                    *flags,
                ],
                cwd=cwd,
                stdout=log,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1", **(env or {})},
            )

    def __repr__(self) -> str:
        return f"<serve :{self.port} pid {self.process.pid}>"

    @property
    def log(self) -> str:
        """Everything the process wrote so far (stdout and stderr, interleaved)."""
        with contextlib.suppress(OSError):
            return self.log_path.read_text(errors="replace")
        return ""

    def log_tail(self, lines: int = 20) -> str:
        return "\n".join(self.log.splitlines()[-lines:])

    def wait_ready(self) -> dict[str, Any]:
        """Until ``/readyz`` answers 200 (its body); fails at once if the process exits."""

        def ready() -> dict[str, Any] | None:
            if not self.alive:
                raise AssertionError(
                    f"{self} exited with {self.process.returncode}:\n{self.log_tail()}"
                )
            response = httpx.get(f"{self.url}/readyz", timeout=5)
            if response.status_code != 200:
                return None
            body: dict[str, Any] = response.json()
            return body

        try:
            return eventually_sync(
                ready, f"{self} ready", timeout=WAIT, interval=0.05, ignoring=(httpx.HTTPError,)
            )
        except AssertionError as exc:
            if not self.alive:
                raise
            raise AssertionError(f"{exc}\n{self.log_tail()}") from None

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

    def stop(self) -> int:
        """SIGINT (a clean shutdown, as Ctrl-C), SIGKILL if it hangs; the exit status."""
        if self.alive:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.kill()
        return self.process.wait(timeout=WAIT)


class Fleet:
    """Server processes of one test (logs under ``log_dir``), all stopped at teardown."""

    def __init__(self, log_dir: Path) -> None:
        self.log_dir = log_dir
        self.servers: list[ServerProcess] = []

    def launch(
        self,
        *flags: str,
        store_url: str | None = None,
        env: Mapping[str, str] | None = None,
        port: int | None = None,
    ) -> ServerProcess:
        """One server, not waited for (a test that reads its startup does that itself);
        on ``port`` (that of a stopped one, for a restart) or a free one."""
        server = ServerProcess(
            self.log_dir, *FAST_CLIENTS, *flags, store_url=store_url, env=env, port=port
        )
        self.servers.append(server)  # registered first: stopped even if it never gets ready
        return server

    def start(self, store_url: str | None, count: int, *flags: str) -> list[ServerProcess]:
        """``count`` servers on one store, each ready."""
        started = [self.launch(*flags, store_url=store_url) for _ in range(count)]
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
