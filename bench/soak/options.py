"""What a soak is asked: ``SoakOptions`` (the deployment, the games, how many faults of
each kind, the bounds) and ``estimate``, how long the asked faults should take on this host.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cluster import CLUSTER_FAILOVER, CLUSTER_KILL, NODE_TIMEOUT
from .faults import REDIS_KILL, REDIS_PAUSE, REDIS_STOP, SERVER_KILL, SERVER_TERM
from .network import (
    FROZEN_SECONDS,
    HALF_OPEN,
    NET_LATENCY,
    NET_LOSS,
    PARTITION_MARGIN,
    REDIS_PARTITION,
    NetworkPlan,
)
from .processes import RESTART_LIMIT

__all__ = ["WARMUP", "SoakOptions", "estimate"]

WARMUP = 2.0
"""Seconds the games play before the first fault."""


@dataclass(frozen=True, slots=True)
class SoakOptions:
    servers: int = 2
    games: int = 20
    spectators: int = 2
    kills: int = 4
    terms: int = 1
    redis_restarts: int = 1
    redis_stops: int = 1
    stop_seconds: float = 3.0
    interval: float = 2.0
    duration: float | None = None
    """Seconds to spread the faults over (None: one after the other, ``interval`` apart);
    with no fault, how long to play."""
    restart_limit: float = RESTART_LIMIT
    """Seconds a server or Redis may take to come back (or a SIGTERMed server to exit)."""
    game_timeout: float = 90.0
    think: float = 0.02
    seed: int = 1
    targets: tuple[str, ...] = ()
    redis_url: str | None = None
    affinity: bool = False
    """Clients go through a real HAProxy with the deployment's room affinity
    (bench.soak.balancer) instead of straight to a random server."""
    latencies: int = 0
    losses: int = 0
    partitions: int = 0
    half_opens: int = 0
    """Network faults (bench.soak.network); with any of them, every connection to Redis and
    every client's connection goes through a proxy the soak starts."""
    latency: float = 0.2
    loss: float = 0.05
    net_seconds: float = 5.0
    lease_ttl: float = 15.0
    """The servers' ``--lease-ttl``; a partition from Redis lasts 5 s longer."""
    cluster_failovers: int = 0
    cluster_kills: int = 0
    """With either, the servers run on a Redis Cluster of three shards with a replica each
    (bench.soak.cluster) instead of one Redis."""

    @property
    def on_cluster(self) -> bool:
        return bool(self.cluster_failovers or self.cluster_kills)

    keep: bool = False
    quiet: bool = False

    def asked(self) -> dict[str, int]:
        if self.targets:
            return {REDIS_PAUSE: self.redis_stops}
        return {
            SERVER_KILL: self.kills,
            SERVER_TERM: self.terms,
            REDIS_KILL: self.redis_restarts,
            REDIS_STOP: self.redis_stops,
            NET_LATENCY: self.latencies,
            NET_LOSS: self.losses,
            REDIS_PARTITION: self.partitions,
            HALF_OPEN: self.half_opens,
            CLUSTER_FAILOVER: self.cluster_failovers,
            CLUSTER_KILL: self.cluster_kills,
        }

    def network(self) -> NetworkPlan | None:
        """The proxies' plan, when a network fault is asked."""
        if not (self.latencies or self.losses or self.partitions or self.half_opens):
            return None
        return NetworkPlan(
            latency=self.latency,
            loss=self.loss,
            seconds=self.net_seconds,
            lease_ttl=self.lease_ttl,
            half_open=self.half_opens > 0,
        )


def estimate(options: SoakOptions, server_start: float) -> float:
    """Seconds the asked faults should take here, a server taking ``server_start``
    seconds from launch to ready: each fault's recovery and the play after it."""
    costs = {
        SERVER_KILL: server_start,
        SERVER_TERM: server_start + 1.0,  # the drain's close of its connections
        REDIS_KILL: 2.0,  # Redis reads its AOF; the servers' connections come back
        REDIS_STOP: options.stop_seconds,
        REDIS_PAUSE: options.stop_seconds,
        NET_LATENCY: options.net_seconds,
        NET_LOSS: options.net_seconds,
        REDIS_PARTITION: options.lease_ttl + PARTITION_MARGIN + 2.0,  # and registering again
        HALF_OPEN: FROZEN_SECONDS,
        CLUSTER_FAILOVER: 1.0,
        CLUSTER_KILL: 3 * NODE_TIMEOUT / 1000 + 2.0,  # the election, the node back in sync
    }
    return WARMUP + sum(
        count * (costs[kind] + options.interval) for kind, count in options.asked().items()
    )
