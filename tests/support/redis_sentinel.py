"""A private Redis Sentinel set for tests: a primary, a replica and one Sentinel, by pid.

Each data node is a ``RedisServer`` (tests/support/redis_server.py) on a free loopback port;
the replica follows the primary (``replicaof``). Both are started with
``min-replicas-to-write 1`` by default, so a primary without a replica in sync refuses
writes (``NOREPLICAS``): after a promotion the old primary takes none, which is the setting
docs/operations.md recommends. One Sentinel (``redis-sentinel``, or ``redis-server
--sentinel``, the same program in Debian's package) watches them with ``quorum 1`` and a
short ``down-after-milliseconds`` and short periods (``SENTINEL_PERIODS``), so a failover
is quick and needs no vote of peers; the replica syncs at once (no diskless sync delay).
``failover()`` runs ``SENTINEL FAILOVER`` and waits, bounded, until Sentinel names the new
primary, the new primary says so and the old one has become its replica.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import redis

from tests.support.redis_server import REDIS_SERVER, RedisServer, free_port
from tests.support.waiting import eventually_sync

__all__ = ["SERVICE", "LocalSentinel", "SentinelNode"]

SERVICE = "ttt-primary"
FAILOVER_TIMEOUT = 30.0
SENTINEL_PERIODS = ("info-period", "1000", "publish-period", "250")
"""Sentinel's own periods, shortened for tests (``SENTINEL DEBUG``, Redis 7): it asks each
node for INFO every second instead of every 10 s, and turns an old primary that came back
into a replica after 4 publish periods (1 s) instead of 8 s. Without them a test waits
10-20 s for the old primary's demotion; the failover itself is the same."""


def command(client: redis.Redis, *args: str | int) -> Any:
    """One Redis command and its parsed reply (redis-py's sync client leaves this untyped)."""
    return client.execute_command(*args)  # type: ignore[no-untyped-call]


def _replica_in_sync(info: dict[str, Any]) -> bool:
    """The primary's INFO replication: one replica, online, counted good for writes."""
    replica = info.get("slave0")
    online = isinstance(replica, dict) and replica.get("state") == "online"
    return online and int(info.get("min_slaves_good_slaves", 1)) >= 1


class SentinelNode(RedisServer):
    """A data node: a redis-server, optionally a replica of ``primary_port``."""

    def __init__(self, directory: Path, *, min_replicas: int = 1) -> None:
        super().__init__(directory)
        self.primary_port: int | None = None
        self.min_replicas = min_replicas

    def _command(self) -> list[str]:
        extra = ["--min-replicas-to-write", str(self.min_replicas), "--min-replicas-max-lag", "5"]
        # A full sync at once: by default a primary waits 5 s for more replicas to share a
        # diskless transfer with, and every test would wait for its replica that long.
        extra += ["--repl-diskless-sync-delay", "0"]
        if self.primary_port is not None:
            extra += ["--replicaof", "127.0.0.1", str(self.primary_port)]
        return [*super()._command(), *extra]

    def role(self) -> str:
        with contextlib.closing(self.client()) as client:
            return str(command(client, "ROLE")[0])


class LocalSentinel:
    """A primary, a replica and one Sentinel, each a process of its own in ``directory``."""

    def __init__(self, directory: Path, *, min_replicas: int = 1) -> None:
        self.directory = directory
        self.nodes = [
            SentinelNode(directory / "node0", min_replicas=min_replicas),
            SentinelNode(directory / "node1", min_replicas=min_replicas),
        ]
        self.nodes[1].primary_port = self.nodes[0].port
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis+sentinel://127.0.0.1:{self.port}/{SERVICE}/0"

    def sentinel_client(self) -> redis.Redis:
        return redis.Redis(
            port=self.port, socket_timeout=5.0, socket_connect_timeout=5.0, decode_responses=True
        )

    def primary_port(self) -> int:
        """The primary's port as Sentinel names it now."""
        with contextlib.closing(self.sentinel_client()) as client:
            return int(command(client, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", SERVICE)[1])

    def primary(self) -> SentinelNode:
        port = self.primary_port()
        return next(node for node in self.nodes if node.port == port)

    def replica(self) -> SentinelNode:
        port = self.primary_port()
        return next(node for node in self.nodes if node.port != port)

    def _start_sentinel(self) -> None:
        self.directory.mkdir(parents=True, exist_ok=True)
        config = self.directory / "sentinel.conf"  # Sentinel rewrites it: its own copy
        config.write_text(
            f"port {self.port}\n"
            "bind 127.0.0.1\n"
            "protected-mode no\n"
            f"dir {self.directory}\n"
            f"logfile {self.directory / 'sentinel.log'}\n"
            f"sentinel monitor {SERVICE} 127.0.0.1 {self.nodes[0].port} 1\n"
            f"sentinel down-after-milliseconds {SERVICE} 1000\n"
            f"sentinel failover-timeout {SERVICE} 10000\n"
        )
        program = shutil.which("redis-sentinel")
        argv = [program, str(config)] if program else [REDIS_SERVER, str(config), "--sentinel"]
        self.process = subprocess.Popen(
            argv, cwd=self.directory, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )

        def answering() -> bool:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-sentinel exited; see {self.directory}/sentinel.log")
            with contextlib.closing(self.sentinel_client()) as client:
                return bool(client.ping())

        def watching() -> bool:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-sentinel exited; see {self.directory}/sentinel.log")
            with contextlib.closing(self.sentinel_client()) as client:
                replicas = command(client, "SENTINEL", "REPLICAS", SERVICE)
            # A replica Sentinel has read INFO from (its link up): one it may promote.
            ready = [r for r in replicas if r.get("master-link-status") == "ok" and r.get("runid")]
            return self.primary_port() == self.nodes[0].port and len(ready) == 1

        eventually_sync(
            answering,
            f"redis-sentinel on port {self.port} answering",
            timeout=FAILOVER_TIMEOUT,
            ignoring=(redis.ConnectionError, redis.TimeoutError),
        )
        with contextlib.closing(self.sentinel_client()) as client:
            command(client, "SENTINEL", "DEBUG", *SENTINEL_PERIODS)
        eventually_sync(
            watching,
            f"redis-sentinel on port {self.port} watching a primary and its replica",
            timeout=FAILOVER_TIMEOUT,
            ignoring=(redis.ConnectionError, redis.TimeoutError, redis.ResponseError),
        )

    def start(self) -> LocalSentinel:
        for node in self.nodes:
            node.start()
        with contextlib.closing(self.nodes[0].client()) as primary:
            eventually_sync(
                lambda: _replica_in_sync(command(primary, "INFO", "replication")),
                "the replica in sync with the primary",
                timeout=FAILOVER_TIMEOUT,
            )
        self._start_sentinel()
        return self

    def failover(self) -> tuple[SentinelNode, SentinelNode]:
        """``SENTINEL FAILOVER`` once the replica holds every write the primary acknowledged
        (``WAIT``: replication is asynchronous, and on a busy host the replica can lag at the
        promotion, losing what docs/operations.md says a failover may lose; the tests check
        the switch, not that race); waits until Sentinel names the replica the primary (the
        old primary is reconfigured as its replica seconds later: ``wait_demoted``). Returns
        (old primary, new primary)."""
        old, new = self.primary(), self.replica()
        with contextlib.closing(old.client()) as client:
            synced = command(client, "WAIT", "1", str(int(FAILOVER_TIMEOUT * 1000)))
            assert int(synced) >= 1, "the replica did not catch up before the failover"
        with contextlib.closing(self.sentinel_client()) as client:
            command(client, "SENTINEL", "FAILOVER", SERVICE)
        self.wait_for_primary(new)
        return old, new

    def wait_demoted(self, node: SentinelNode) -> None:
        """Until Sentinel has turned the old primary ``node`` into a replica."""
        eventually_sync(
            lambda: node.role() == "slave",
            f"port {node.port} reconfigured as a replica",
            timeout=FAILOVER_TIMEOUT,
            ignoring=(redis.ConnectionError, redis.TimeoutError),
        )

    def wait_for_primary(self, node: SentinelNode) -> None:
        eventually_sync(
            lambda: self.primary_port() == node.port and node.role() == "master",
            f"Sentinel naming port {node.port} the primary",
            timeout=FAILOVER_TIMEOUT,
            ignoring=(redis.ConnectionError, redis.TimeoutError, redis.ResponseError),
        )

    def kill(self) -> None:
        if self.process is not None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)
            self.process = None
        for node in self.nodes:
            node.kill()

    def __enter__(self) -> LocalSentinel:
        try:
            return self.start()
        except BaseException:
            self.kill()
            raise

    def __exit__(self, *exc: object) -> None:
        self.kill()

    @classmethod
    @contextlib.contextmanager
    def running(cls, directory: Path, *, min_replicas: int = 1) -> Iterator[LocalSentinel]:
        with cls(directory, min_replicas=min_replicas) as sentinel:
            yield sentinel
