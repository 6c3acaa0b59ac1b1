"""The faults a soak injects, each one blocking until the system it hit is whole again.

``SERVER_KILL`` (``kill -9`` of a server, then a restart on the same port), ``SERVER_TERM``
(SIGTERM: the graceful shutdown, clients get 1012; then a restart), ``REDIS_KILL``
(``kill -9`` of Redis, restarted from its AOF) and ``REDIS_STOP`` (SIGSTOP for S seconds,
then SIGCONT) need the processes the soak started. Against servers it did not start
(``--target``) the only fault is ``REDIS_PAUSE``: ``CLIENT PAUSE`` for S seconds over the
given ``--redis-url``, Redis's own freeze of every client. The network faults
(``NETWORK_KINDS``: latency, loss, a server's partition from Redis, half-open client
connections) go through the soak's proxies (bench.soak.network); on a Redis Cluster
(bench.soak.cluster) a shard's failover and the kill of its primary. The victim server is
the next one in turn. After each fault every server must answer ``/readyz`` 200 (within
``limit``, the soak's ``--restart-limit``) before the next one, and, behind a balancer, the
balancer must see them all up.
"""

from __future__ import annotations

import contextlib
import time
import urllib.request
from collections.abc import Callable, Sequence

import redis

from .cluster import CLUSTER_FAILOVER, CLUSTER_KILL, SoakCluster
from .network import NETWORK_KINDS, Network
from .processes import RESTART_LIMIT, RedisNode, ServerNode, StartFailed

__all__ = [
    "KINDS",
    "REDIS_KILL",
    "REDIS_PAUSE",
    "REDIS_STOP",
    "SERVER_KILL",
    "SERVER_TERM",
    "Injector",
    "wait_all_ready",
]

SERVER_KILL = "server_kill"
SERVER_TERM = "server_term"
REDIS_KILL = "redis_kill"
REDIS_STOP = "redis_stop"
REDIS_PAUSE = "redis_pause"
KINDS = (
    SERVER_KILL,
    SERVER_TERM,
    REDIS_KILL,
    REDIS_STOP,
    REDIS_PAUSE,
    *NETWORK_KINDS,
    CLUSTER_FAILOVER,
    CLUSTER_KILL,
)


def _ready(url: str) -> bool:
    with (
        contextlib.suppress(OSError),
        urllib.request.urlopen(f"{url}/readyz", timeout=2) as answer,
    ):
        return bool(answer.status == 200)
    return False


def wait_all_ready(urls: Sequence[str], timeout: float = RESTART_LIMIT) -> None:
    deadline = time.monotonic() + timeout
    waiting = list(urls)
    while waiting:
        waiting = [url for url in waiting if not _ready(url)]
        if waiting and time.monotonic() > deadline:
            raise StartFailed(f"/readyz not 200 within {timeout:g} s: {', '.join(waiting)}")
        if waiting:
            time.sleep(0.1)


class Injector:
    """Injects one fault at a time (blocking: run it in a thread)."""

    def __init__(
        self,
        servers: Sequence[ServerNode],
        redis_node: RedisNode | None,
        *,
        stop_seconds: float,
        urls: Sequence[str] = (),
        redis_url: str | None = None,
        whole: Callable[[], None] | None = None,
        limit: float = RESTART_LIMIT,
        network: Network | None = None,
        cluster: SoakCluster | None = None,
    ) -> None:
        self.servers = list(servers)
        self.network = network
        self.cluster = cluster
        self.whole = whole
        """Also waited for after every fault, once every server is ready (a balancer's
        checks seeing them all up)."""
        self.redis_node = redis_node
        self.stop_seconds = stop_seconds
        self.urls = [server.url for server in servers] or list(urls)
        self.redis_url = redis_url
        self.limit = limit
        self._turn = 0

    def _victim(self) -> ServerNode:
        victim = self.servers[self._turn % len(self.servers)]
        self._turn += 1
        return victim

    def inject(self, kind: str) -> None:
        if kind == SERVER_KILL:
            victim = self._victim()
            victim.kill()
            victim.start()
        elif kind == SERVER_TERM:
            victim = self._victim()
            victim.terminate()
            victim.start()
        elif kind == REDIS_KILL:
            assert self.redis_node is not None
            self.redis_node.kill()
            self.redis_node.start()
        elif kind == REDIS_STOP:
            assert self.redis_node is not None
            self.redis_node.freeze()
            try:
                time.sleep(self.stop_seconds)
            finally:
                self.redis_node.thaw()
        elif kind == REDIS_PAUSE:
            assert self.redis_url is not None
            admin = redis.Redis.from_url(self.redis_url, socket_timeout=10)
            try:
                admin.client_pause(int(self.stop_seconds * 1000), all=True)
            finally:
                admin.close()
            time.sleep(self.stop_seconds)
        elif kind == CLUSTER_FAILOVER:
            assert self.cluster is not None
            self.cluster.failover()
        elif kind == CLUSTER_KILL:
            assert self.cluster is not None
            self.cluster.kill_primary()
        elif kind in NETWORK_KINDS:
            assert self.network is not None
            self.network.inject(kind, self.servers.index(self._victim()))
        else:
            raise ValueError(f"unknown fault kind {kind!r}")
        wait_all_ready(self.urls, self.limit)
        if self.whole is not None:
            self.whole()
