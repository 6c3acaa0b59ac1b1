"""A private redis-server for tests: free port, temp directory, stopped by its own pid.

Never the system server on 6379. The process can be killed with SIGKILL, restarted on the
same port and directory (so an AOF written before the kill is replayed, or not, as the
test chooses), frozen with SIGSTOP and thawed with SIGCONT. Every wait is bounded.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import subprocess
from collections.abc import Iterator, Sequence
from pathlib import Path

import redis

from tests.support.waiting import eventually_sync

__all__ = ["REDIS_SERVER", "RedisServer", "free_port", "redis_available"]

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
START_TIMEOUT = 15.0
STOP_TIMEOUT = 10.0


def redis_available() -> bool:
    return os.access(REDIS_SERVER, os.X_OK)


def free_port() -> int:
    """A TCP port nobody listens on right now (the kernel picks it; never 6379)."""
    for _ in range(20):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
            probe.bind(("127.0.0.1", 0))
            port = int(probe.getsockname()[1])
        if port != 6379:
            return port
    raise RuntimeError("no free port found in 20 tries")


class RedisServer:
    """One redis-server process at a time on ``port`` with its data in ``directory``."""

    def __init__(
        self, directory: Path, *, appendonly: bool = False, extra: Sequence[str] = ()
    ) -> None:
        self.directory = directory
        self.appendonly = appendonly
        self.extra = tuple(extra)
        """More redis-server arguments (a TLS port, a unix socket); the plain port stays."""
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None
        self.paused = False

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def pid(self) -> int:
        if self.process is None:
            raise RuntimeError("the redis-server is not running")
        return self.process.pid

    def _command(self) -> list[str]:
        return [
            REDIS_SERVER,
            "--port",
            str(self.port),
            "--bind",
            "127.0.0.1",
            "--dir",
            str(self.directory),
            "--logfile",
            str(self.directory / "redis.log"),
            "--daemonize",
            "no",
            "--protected-mode",
            "no",
            "--save",
            "",  # no RDB snapshots: persistence is the AOF or nothing
            "--appendonly",
            "yes" if self.appendonly else "no",
            "--appendfsync",
            "always",  # an acknowledged write survives a kill -9
            *self.extra,
        ]

    def start(self, *, appendonly: bool | None = None) -> None:
        """Start (or start again, same port and directory) and wait until it answers."""
        if self.process is not None:
            raise RuntimeError(f"redis-server already running as pid {self.process.pid}")
        if appendonly is not None:
            self.appendonly = appendonly
        self.directory.mkdir(parents=True, exist_ok=True)
        self.process = subprocess.Popen(
            self._command(),
            cwd=self.directory,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        self.paused = False
        probe = redis.Redis(port=self.port, socket_timeout=1.0, socket_connect_timeout=1.0)

        def answering() -> bool:
            assert self.process is not None
            if self.process.poll() is not None:
                code = self.process.returncode
                self.process = None
                raise RuntimeError(
                    f"redis-server on port {self.port} exited with {code}; see "
                    f"{self.directory / 'redis.log'}"
                )
            return bool(probe.ping())

        try:
            eventually_sync(
                answering,
                f"redis-server on port {self.port} answering",
                timeout=START_TIMEOUT,
                ignoring=(redis.ConnectionError, redis.BusyLoadingError, redis.TimeoutError),
            )
        except AssertionError as exc:
            self.kill()
            raise RuntimeError(f"redis-server on port {self.port} did not answer") from exc
        finally:
            probe.close()

    def _wait(self) -> None:
        assert self.process is not None
        try:
            self.process.wait(timeout=STOP_TIMEOUT)
        finally:
            self.process = None
            self.paused = False

    def kill(self) -> None:
        """SIGKILL (no shutdown, no final AOF rewrite), then wait for the pid to exit."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.process.pid, signal.SIGKILL)
        self._wait()

    def stop(self) -> None:
        """A clean SIGTERM shutdown (SIGKILL when it does not exit in time)."""
        if self.process is None:
            return
        if self.paused:
            self.resume()
        self.process.terminate()
        try:
            self.process.wait(timeout=STOP_TIMEOUT)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self._wait()

    def restart(self, *, appendonly: bool | None = None) -> None:
        """kill -9, then start again on the same port with the same directory."""
        self.kill()
        self.start(appendonly=appendonly)

    def wipe(self) -> None:
        """Forget every file of the stopped server (a restart then starts empty)."""
        if self.process is not None:
            raise RuntimeError("stop the server before wiping its directory")
        shutil.rmtree(self.directory, ignore_errors=True)

    def pause(self) -> None:
        os.kill(self.pid, signal.SIGSTOP)
        self.paused = True

    def resume(self) -> None:
        os.kill(self.pid, signal.SIGCONT)
        self.paused = False

    def client(self) -> redis.Redis:
        """A plain synchronous client for the test's own checks and admin commands."""
        return redis.Redis(
            port=self.port,
            socket_timeout=5.0,
            socket_connect_timeout=5.0,
            decode_responses=True,
        )

    def __enter__(self) -> RedisServer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.kill()

    @classmethod
    @contextlib.contextmanager
    def running(cls, directory: Path, *, appendonly: bool = False) -> Iterator[RedisServer]:
        with cls(directory, appendonly=appendonly) as server:
            yield server
