"""The soak's network faults: proxies between the servers and Redis and before the servers.

With any network fault asked, each server reaches Redis only through its own
``FaultProxy`` (bench.soak.netfault), so one server can be cut off alone, and the clients
reach each server (or the balancer) only through another. The faults, each for a bounded
time, then undone:

- ``net_latency``: every proxy delays each chunk by ``latency`` seconds, for ``seconds``.
- ``net_loss``: every proxy stalls a chunk with probability ``loss`` (a lost segment's
  retransmission; netfault says how), for ``seconds``.
- ``redis_partition``: one server (in turn) cut off from Redis for ``lease_ttl`` + 5
  seconds: longer than its presence lease, so it must give its connections up (1012) and
  register again once Redis is back, while the others sweep up after it.
- ``half_open``: a quarter of the clients' connections (at least one a proxy) go silent
  both ways without a close, for longer than the servers' ping interval and timeout
  (``PING`` each), so the servers find them dead; then they flow again, and their clients
  see the close and resume.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from dataclasses import dataclass

from .netfault import FaultProxy

__all__ = [
    "FROZEN_SECONDS",
    "HALF_OPEN",
    "NETWORK_KINDS",
    "NET_LATENCY",
    "NET_LOSS",
    "PARTITION_MARGIN",
    "PING",
    "REDIS_PARTITION",
    "Network",
    "NetworkPlan",
]

NET_LATENCY = "net_latency"
NET_LOSS = "net_loss"
REDIS_PARTITION = "redis_partition"
HALF_OPEN = "half_open"
NETWORK_KINDS = (NET_LATENCY, NET_LOSS, REDIS_PARTITION, HALF_OPEN)
PING = 2.0
"""The servers' ``--ping-interval`` and ``--ping-timeout`` when half-open connections are
injected: a silent peer is found dead within about twice this."""
FROZEN_SHARE = 0.25
FROZEN_SECONDS = 2 * PING + 3.0
"""How long half-open connections stay silent: past the servers' ping and its timeout."""
PARTITION_MARGIN = 5.0
"""Seconds a partition lasts beyond the lease."""


@dataclass(frozen=True, slots=True)
class NetworkPlan:
    latency: float = 0.2
    loss: float = 0.05
    seconds: float = 5.0
    """How long each latency or loss episode lasts."""
    lease_ttl: float = 15.0
    half_open: bool = False
    """Whether the servers need short pings (half-open connections will be injected)."""

    @property
    def partition_seconds(self) -> float:
        return self.lease_ttl + PARTITION_MARGIN

    def server_flags(self) -> tuple[str, ...]:
        flags: tuple[str, ...] = ("--lease-ttl", f"{self.lease_ttl:g}")
        if self.half_open:
            flags += ("--ping-interval", f"{PING:g}", "--ping-timeout", f"{PING:g}")
        return flags


class Network:
    """The proxies: ``to_redis[i]`` for server i, ``front`` before the servers (or the
    balancer), in the order of the ports given to ``open_front``."""

    def __init__(self, plan: NetworkPlan, redis_port: int, servers: int, seed: int) -> None:
        self.plan = plan
        self.to_redis = [FaultProxy(redis_port, seed=seed + i).start() for i in range(servers)]
        self.front: list[FaultProxy] = []
        self.frozen = 0
        """Client connections frozen so far (half_open)."""

    def redis_url(self, server: int) -> str:
        return f"redis://127.0.0.1:{self.to_redis[server].port}/0"

    def open_front(self, ports: Iterable[int], seed: int) -> list[str]:
        """Proxies before these ports; their base URLs, in the same order."""
        self.front = [FaultProxy(port, seed=seed + i).start() for i, port in enumerate(ports)]
        return [f"http://127.0.0.1:{proxy.port}" for proxy in self.front]

    @property
    def proxies(self) -> list[FaultProxy]:
        return [*self.to_redis, *self.front]

    def inject(self, kind: str, victim: int) -> None:
        """One fault, for its time, then undone (``victim``: the server a partition cuts)."""
        plan = self.plan
        if kind in (NET_LATENCY, NET_LOSS):
            for proxy in self.proxies:
                if kind == NET_LATENCY:
                    proxy.degrade(latency=plan.latency)
                else:
                    proxy.degrade(loss=plan.loss)
            try:
                time.sleep(plan.seconds)
            finally:
                for proxy in self.proxies:
                    proxy.degrade()
        elif kind == REDIS_PARTITION:
            proxy = self.to_redis[victim]
            proxy.cut()
            try:
                time.sleep(plan.partition_seconds)
            finally:
                proxy.heal()
        elif kind == HALF_OPEN:
            try:
                self.frozen += sum(proxy.freeze(FROZEN_SHARE) for proxy in self.front)
                time.sleep(FROZEN_SECONDS)
            finally:
                for proxy in self.front:
                    proxy.thaw()
        else:
            raise ValueError(f"not a network fault: {kind!r}")

    def stop(self) -> None:
        for proxy in self.proxies:
            proxy.stop()
