"""Start what the bench measures: the server or the relay in a configuration, and Redis.

Each runs as a process of its own on a free loopback port, is waited for with a bound,
and is stopped by its own pid (SIGTERM, then SIGKILL). The private redis-server keeps no
data on disk (no RDB, no AOF): the bench measures the server, not the disk. Its output
goes to a log file in a temporary directory, shown when it fails to start. A configuration
with ``servers`` above 1 (``affinity``) starts that many single-process servers (or relays)
and a real HAProxy in front of them with room affinity (bench.load.haproxy); the bench
then talks to HAProxy only.
"""

from __future__ import annotations

import contextlib
import json
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import redis

from .haproxy import haproxy_binary, haproxy_config

__all__ = [
    "CONFIGS",
    "Config",
    "Launched",
    "RedisProcess",
    "free_port",
    "launch",
    "start_redis",
    "wait_for_redis",
    "worker_stats",
]

START_TIMEOUT = 30.0
STOP_TIMEOUT = 15.0


@dataclass(frozen=True, slots=True)
class Config:
    name: str
    store: str  # "memory" or "redis"
    workers: int
    """Worker processes of each server (uvicorn's, on one port)."""
    servers: int = 1
    """Servers (each its own port) behind HAProxy with room affinity; 1: no proxy."""

    @property
    def processes(self) -> int:
        """Server processes in all."""
        return self.workers * self.servers


CONFIGS = {
    "memory": Config("memory", "memory", 1),
    "redis": Config("redis", "redis", 1),
    "redis2": Config("redis2", "redis", 2),
    "affinity": Config("affinity", "redis", 1, servers=2),
}


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.send_signal(signal.SIGTERM)
    try:
        process.wait(STOP_TIMEOUT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(STOP_TIMEOUT)


def _tail(path: Path) -> str:
    with contextlib.suppress(OSError):
        return path.read_text(errors="replace")[-2000:]
    return ""


@dataclass(slots=True)
class Launched:
    """A server or relay process tree answering on ``url``; or HAProxy answering there in
    front of the ``behind`` ones."""

    process: subprocess.Popen[bytes]
    url: str
    log: Path
    directory: tempfile.TemporaryDirectory[str] = field(repr=False)
    behind: list[Launched] = field(default_factory=list)

    @property
    def pid(self) -> int:
        return self.process.pid

    @property
    def pids(self) -> tuple[int, ...]:
        """Every process tree that serves the load (HAProxy's included)."""
        return (self.pid, *(server.pid for server in self.behind))

    @property
    def proxy_pid(self) -> int | None:
        return self.pid if self.behind else None

    def stop(self) -> None:
        _stop(self.process)
        self.directory.cleanup()
        for server in self.behind:
            server.stop()


def launch(
    target: str, config: Config, redis_url: str | None, *, fastpath: bool = True
) -> Launched:
    """Start ``target`` ("server", "relay" or "plain") in ``config``; return once
    ``/healthz`` answers (through HAProxy when ``config.servers`` > 1). ``fastpath`` False
    starts the server with ``--no-fastpath`` (the others are unchanged)."""
    if config.servers > 1:
        return _balanced(target, config, redis_url, fastpath=fastpath)
    port = free_port()
    if target == "server":
        # Presence heartbeats and sweeps are a slow constant background, not per move; INFO
        # commandstats cannot tell them apart, and the idle server's would land in the
        # relay's window: long intervals keep them out of every measured window.
        # The per-connection flood limit (20 messages/s by default) is for abusive clients;
        # in rematch mode at think 0 a bench player sends more than that on one connection
        # (a new room each game never does): a limit far above any bench rate keeps the
        # bucket's cost and takes out its refusals.
        command = [
            sys.executable,
            "-m",
            "cli",
            "serve",
            "--port",
            str(port),
            "--log-level",
            "warning",
            "--lease-ttl",
            "3600",
            "--sweep-interval",
            "3600",
            "--rate",
            "100000",
            "--burst",
            "100000",
        ]
        if not fastpath:
            command.append("--no-fastpath")
    elif target == "relay":
        command = [sys.executable, "-m", "bench.load.relay", "--port", str(port)]
    elif target == "plain":
        command = [sys.executable, "-m", "bench.load.plain", "--port", str(port)]
    else:
        raise ValueError(f"target must be server, relay or plain, not {target!r}")
    if config.store == "redis":
        if redis_url is None:
            raise ValueError(f"configuration {config.name} needs a Redis URL")
        command += ["--redis-url", redis_url, "--workers", str(config.workers)]
    launched = _start(target, command, port)
    if config.workers > 1:
        _wait_for_workers(launched, config.workers, time.monotonic() + START_TIMEOUT)
    return launched


def _start(name: str, command: list[str], port: int) -> Launched:
    """Run ``command``, which serves on loopback ``port``; return once ``/healthz`` answers
    there."""
    directory = tempfile.TemporaryDirectory(prefix=f"bench-{name}-")
    log = Path(directory.name) / "output.log"
    with log.open("wb") as output:
        process = subprocess.Popen(command, stdout=output, stderr=subprocess.STDOUT)
    launched = Launched(process, f"http://127.0.0.1:{port}", log, directory)
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if process.poll() is not None:
            tail = _tail(log)  # before stop() removes the log
            launched.stop()
            raise RuntimeError(f"{name} exited with {process.returncode}:\n{tail}")
        with (
            contextlib.suppress(OSError),
            urllib.request.urlopen(f"{launched.url}/healthz", timeout=1) as answer,
        ):
            if answer.status == 200:
                break
        if time.monotonic() > deadline:
            tail = _tail(log)
            launched.stop()
            raise RuntimeError(f"{name} did not answer within {START_TIMEOUT} s:\n{tail}")
        time.sleep(0.05)
    return launched


def proxy_maxconn() -> int:
    """HAProxy's connection limit: two descriptors a connection (the client's and the
    server's) plus a few dozen, within the hard open-file limit it raises its own to."""
    hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
    limit = 1 << 20 if hard == resource.RLIM_INFINITY else hard
    return max(100, min(100_000, (limit - 500) // 2))


def _balanced(target: str, config: Config, redis_url: str | None, *, fastpath: bool) -> Launched:
    """``config.servers`` single servers (or relays) on one Redis behind HAProxy."""
    binary = haproxy_binary()
    if binary is None:
        raise RuntimeError(f"configuration {config.name} needs HAProxy (apt-get install haproxy)")
    single = Config(config.name, config.store, config.workers)
    behind: list[Launched] = []
    try:
        for _ in range(config.servers):
            behind.append(launch(target, single, redis_url, fastpath=fastpath))
        port = free_port()
        directory = tempfile.TemporaryDirectory(prefix="bench-haproxy-config-")
        path = Path(directory.name) / "haproxy.cfg"
        ports = [int(server.url.rsplit(":", 1)[1]) for server in behind]
        path.write_text(haproxy_config(port, ports, maxconn=proxy_maxconn()))
        try:
            proxy = _start("haproxy", [binary, "-db", "-f", str(path)], port)
        finally:
            directory.cleanup()  # HAProxy has read it (or failed to)
    except BaseException:
        for server in behind:
            server.stop()
        raise
    proxy.behind = behind
    _wait_for_workers(proxy, config.processes, time.monotonic() + START_TIMEOUT)
    return proxy


def worker_stats(url: str, workers: int, *, tries: int = 200) -> dict[int, dict[str, Any]]:
    """``GET /api/stats`` of every worker, by pid. Each request is a new connection, which
    the kernel hands to any worker, so asking enough times reaches all of them (bounded:
    fewer than ``workers`` entries means some never answered)."""
    seen: dict[int, dict[str, Any]] = {}
    for _ in range(tries):
        with (
            contextlib.suppress(OSError, ValueError),
            urllib.request.urlopen(f"{url}/api/stats", timeout=2) as answer,
        ):
            data = json.loads(answer.read())
            seen[int(data["pid"])] = data
        if len(seen) >= workers:
            break
        time.sleep(0.01)
    return seen


def _wait_for_workers(launched: Launched, workers: int, deadline: float) -> None:
    """uvicorn answers as soon as one worker is up; wait until all of them are."""
    while time.monotonic() < deadline:
        if len(worker_stats(launched.url, workers, tries=20)) >= workers:
            return
        time.sleep(0.1)
    raise RuntimeError(f"only some of the {workers} workers answered at {launched.url}")


def start_redis(port: int, directory: Path, *, appendonly: bool) -> subprocess.Popen[bytes]:
    """A redis-server on loopback ``port`` (never the system's 6379), its files and log in
    ``directory``: no persistence, or with ``appendonly`` an AOF fsynced on every write, so
    that what it acknowledged survives a ``kill -9``."""
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    directory.mkdir(parents=True, exist_ok=True)
    aof = ["--appendonly", "yes", "--appendfsync", "always"] if appendonly else []
    persistence = aof or ["--appendonly", "no"]
    return subprocess.Popen(
        [
            binary,
            *("--port", str(port), "--bind", "127.0.0.1", "--dir", str(directory)),
            *("--save", "", "--daemonize", "no"),
            *("--logfile", str(directory / "redis.log"), "--maxclients", "10000"),
            *persistence,
        ],
        cwd=directory,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def wait_for_redis(
    port: int, process: subprocess.Popen[bytes], log: Path, *, timeout: float = START_TIMEOUT
) -> None:
    """Until the server on ``port`` answers PING (also while it loads its AOF); RuntimeError
    with its log's tail if it exits or does not answer within ``timeout`` seconds."""
    probe = redis.Redis(port=port, socket_timeout=1.0, socket_connect_timeout=1.0)
    deadline = time.monotonic() + timeout
    try:
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"redis-server exited:\n{_tail(log)}")
            with contextlib.suppress(
                redis.ConnectionError, redis.BusyLoadingError, redis.TimeoutError
            ):
                if probe.ping():
                    return
            if time.monotonic() > deadline:
                raise RuntimeError(
                    f"redis-server did not answer within {timeout:g} s:\n{_tail(log)}"
                )
            time.sleep(0.02)
    finally:
        probe.close()


class RedisProcess:
    """A private redis-server on a free port (never the system's 6379), no persistence."""

    def __init__(self) -> None:
        self.port = free_port()
        self.directory = tempfile.TemporaryDirectory(prefix="bench-redis-")
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def start(self) -> RedisProcess:
        self.process = start_redis(self.port, Path(self.directory.name), appendonly=False)
        try:
            wait_for_redis(self.port, self.process, Path(self.directory.name) / "redis.log")
        except RuntimeError:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        if self.process is not None:
            _stop(self.process)
            self.process = None
        self.directory.cleanup()

    def __enter__(self) -> RedisProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
