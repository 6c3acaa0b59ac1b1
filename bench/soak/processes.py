"""The processes a soak owns: one redis-server with an AOF, and ``tictactoe serve`` nodes.

Each runs as a real subprocess on a loopback port that stays the same across restarts (a
restarted node is where clients expect it, as behind a fixed address), with its output in a
file of the soak's temporary directory. Faults are signals to the process's own pid:
``kill -9``, SIGTERM, SIGSTOP and SIGCONT; every wait is bounded.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from bench.load.launch import free_port, start_redis, wait_for_redis

__all__ = ["RedisNode", "ServerNode", "SoakError", "StartFailed", "tail", "wait_exit"]

START_TIMEOUT = 30.0
STOP_TIMEOUT = 20.0


class SoakError(RuntimeError):
    """The soak could not run as asked (the message says why, in one line or a log tail)."""


class StartFailed(SoakError):
    """A process did not come up (its log's tail is in the message)."""


def tail(path: Path, size: int = 1500) -> str:
    with contextlib.suppress(OSError):
        return path.read_text(errors="replace")[-size:]
    return ""


def wait_exit(process: subprocess.Popen[bytes], timeout: float = STOP_TIMEOUT) -> int:
    try:
        return process.wait(timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        return process.wait(timeout)


class RedisNode:
    """A private redis-server (never 6379) with ``appendonly yes`` and ``appendfsync
    always``, so that whatever it acknowledged survives a ``kill -9`` and is read back from
    the AOF on restart."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.frozen = False

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def log(self) -> Path:
        return self.directory / "redis.log"

    def start(self) -> None:
        self.process = start_redis(self.port, self.directory, appendonly=True)
        self.frozen = False
        try:
            wait_for_redis(self.port, self.process, self.log)
        except RuntimeError as exc:
            self.kill()
            raise StartFailed(str(exc)) from None

    def kill(self) -> None:
        """``kill -9``: no shutdown, no last write; the AOF holds what was fsynced."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.process.pid, signal.SIGKILL)
        wait_exit(self.process)
        self.process, self.frozen = None, False

    def freeze(self) -> None:
        if self.process is not None:
            os.kill(self.process.pid, signal.SIGSTOP)
            self.frozen = True

    def thaw(self) -> None:
        if self.process is not None and self.frozen:
            os.kill(self.process.pid, signal.SIGCONT)
            self.frozen = False

    def stop(self) -> None:
        if self.process is None:
            return
        self.thaw()
        self.process.terminate()
        wait_exit(self.process)
        self.process = None


class ServerNode:
    """``tictactoe serve --redis-url URL`` (one worker) on its own port."""

    def __init__(self, directory: Path, redis_url: str, flags: tuple[str, ...] = ()) -> None:
        self.directory = directory
        self.redis_url = redis_url
        self.flags = flags
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.launched_at: list[float] = []
        """``time.monotonic()`` of each launch: the first start, then every restart."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        return self.directory / f"serve-{self.port}.log"

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def launch(self) -> None:
        """Start the process (not waited for: ``wait_ready``)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        self.starts += 1
        self.launched_at.append(time.monotonic())
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                [
                    sys.executable,
                    "-m",
                    "cli",
                    "serve",
                    "--port",
                    str(self.port),
                    "--redis-url",
                    self.redis_url,
                    "--log-level",
                    "warning",
                    "--wait-for-redis",
                    "30",
                    # Soak clients send faster than people; the flood limit is not under test.
                    "--rate",
                    "1000",
                    "--burst",
                    "1000",
                    *self.flags,
                ],
                stdout=output,
                stderr=subprocess.STDOUT,
                env={**os.environ, "PYTHONUNBUFFERED": "1"},
            )

    def wait_ready(self, timeout: float = START_TIMEOUT) -> None:
        """Until ``/readyz`` answers 200; fails at once if the process exits."""
        deadline = time.monotonic() + timeout
        while True:
            if not self.alive:
                raise StartFailed(f"tictactoe serve on {self.port} exited:\n{tail(self.log)}")
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"{self.url}/readyz", timeout=1) as answer,
            ):
                if answer.status == 200:
                    return
            if time.monotonic() > deadline:
                raise StartFailed(f"tictactoe serve on {self.port} not ready:\n{tail(self.log)}")
            time.sleep(0.05)

    def start(self) -> None:
        self.launch()
        self.wait_ready()

    def kill(self) -> None:
        """``kill -9``: its sockets die with it; nothing is said to its clients."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.process.pid, signal.SIGKILL)
        wait_exit(self.process)

    def terminate(self) -> int:
        """SIGTERM, the graceful shutdown (its clients get 1012); SIGKILL if it hangs."""
        if self.process is None:
            return 0
        with contextlib.suppress(ProcessLookupError):
            self.process.terminate()
        return wait_exit(self.process)

    def stop(self) -> None:
        if self.alive:
            self.terminate()
