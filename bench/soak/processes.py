"""The processes a soak owns: one redis-server with an AOF, and ``tictactoe serve`` nodes.

Each runs as a real subprocess on a loopback port that stays the same across restarts (a
restarted node is where clients expect it, as behind a fixed address), with its output in a
file of the soak's temporary directory: one file per launch of a server, so that each can
be scanned knowing how that launch ended (bench.soak.logs). Faults are signals to the
process's own pid: ``kill -9``, SIGTERM, SIGSTOP and SIGCONT. Every wait is bounded, by
``limit`` for a start or a graceful stop: generous (``--restart-limit``, 180 s by default),
since a restart on a busy machine takes what it takes, and reported, never a loss.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from bench.load.launch import free_port, start_redis, wait_for_redis

__all__ = [
    "RESTART_LIMIT",
    "Launch",
    "RedisNode",
    "ServerNode",
    "SoakError",
    "StartFailed",
    "tail",
    "wait_exit",
]

RESTART_LIMIT = 180.0
"""Seconds a start, or a graceful stop, may take before the soak gives up on it."""
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

    def __init__(self, directory: Path, limit: float = RESTART_LIMIT) -> None:
        self.directory = directory
        self.limit = limit
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.frozen = False

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def log(self) -> Path:
        return self.directory / "redis.log"

    def start(self, timeout: float | None = None) -> None:
        """Start it and wait until it answers, for ``timeout`` (default ``limit``) seconds."""
        self.process = start_redis(self.port, self.directory, appendonly=True)
        self.frozen = False
        try:
            wait_for_redis(
                self.port,
                self.process,
                self.log,
                timeout=self.limit if timeout is None else timeout,
            )
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


@dataclass(slots=True)
class Launch:
    """One run of a server process: its log file, and how the soak ended it."""

    log: Path
    ended: str | None = None
    """``kill`` (``kill -9``), ``term`` (SIGTERM, exited by itself), ``term-killed``
    (SIGTERM, then ``kill -9`` after ``limit``), ``stop`` (the soak's end; ``stop-killed``);
    None: running."""

    @property
    def killed(self) -> bool:
        """Ended by ``kill -9``: nothing was shut down (bench.soak.logs)."""
        return self.ended in ("kill", "term-killed", "stop-killed")


class ServerNode:
    """``tictactoe serve --redis-url URL`` (one worker) on its own port."""

    def __init__(
        self,
        directory: Path,
        redis_url: str,
        flags: tuple[str, ...] = (),
        *,
        limit: float = RESTART_LIMIT,
    ) -> None:
        self.directory = directory
        self.redis_url = redis_url
        self.flags = flags
        self.limit = limit
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.launched_at: list[float] = []
        """``time.monotonic()`` of each launch: the first start, then every restart."""
        self.launches: list[Launch] = []
        self.ready_seconds: list[float] = []
        """Seconds from each launch to ``/readyz`` 200."""

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        """The current launch's log."""
        return self.directory / f"serve-{self.port}-{self.starts}.log"

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def launch(self) -> None:
        """Start the process (not waited for: ``wait_ready``)."""
        self.directory.mkdir(parents=True, exist_ok=True)
        self.starts += 1
        self.launched_at.append(time.monotonic())
        self.launches.append(Launch(self.log))
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
                    f"{self.limit:g}",
                    # Soak clients send faster than people; the flood limit is not under test.
                    "--rate",
                    "1000",
                    "--burst",
                    "1000",
                    *self.flags,
                ],
                stdout=output,
                stderr=subprocess.STDOUT,
                # ResourceWarnings are shown, for the log scan to find (bench.soak.logs)
                env={
                    **os.environ,
                    "PYTHONUNBUFFERED": "1",
                    "PYTHONWARNINGS": "default::ResourceWarning",
                },
            )

    def wait_ready(self, timeout: float | None = None) -> None:
        """Until ``/readyz`` answers 200, for at most ``timeout`` (default ``limit``)
        seconds since the launch; fails at once if the process exits."""
        launched = self.launched_at[-1]
        timeout = self.limit if timeout is None else timeout
        deadline = launched + timeout
        while True:
            if not self.alive:
                raise StartFailed(f"tictactoe serve on {self.port} exited:\n{tail(self.log)}")
            with (
                contextlib.suppress(OSError),
                urllib.request.urlopen(f"{self.url}/readyz", timeout=2) as answer,
            ):
                if answer.status == 200:
                    self.ready_seconds.append(time.monotonic() - launched)
                    return
            if time.monotonic() > deadline:
                raise StartFailed(
                    f"tictactoe serve on {self.port} not ready within {timeout:g} s:\n"
                    f"{tail(self.log)}"
                )
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
        self._ended("kill")

    def terminate(self, how: str = "term") -> int:
        """SIGTERM, the graceful shutdown (its clients get 1012); ``kill -9`` if it has not
        exited within ``limit`` (the launch then ends ``term-killed``)."""
        if self.process is None:
            return 0
        with contextlib.suppress(ProcessLookupError):
            self.process.terminate()
        try:
            status = self.process.wait(self.limit)
        except subprocess.TimeoutExpired:
            self.process.kill()
            status = self.process.wait(STOP_TIMEOUT)
            how = f"{how}-killed"
        self._ended(how)
        return status

    def stop(self) -> None:
        if self.alive:
            self.terminate("stop")

    def _ended(self, how: str) -> None:
        if self.launches and self.launches[-1].ended is None:
            self.launches[-1].ended = how
