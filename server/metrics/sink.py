"""The Prometheus sink for what rooms/ reports (rooms.common.metrics), installed at startup.

rooms/ calls it at a commit, a Redis round trip, an ``unavailable``, a bus reconnect or
resync, a lost lease and a change of the rooms a worker listens to; each call is one
counter increment or histogram observation on a label child resolved once. The two taken
at every move, commits and round trips, are buffered and flushed once a second
(server.metrics.buffered).
"""

from __future__ import annotations

from typing import Any

from rooms.common import metrics

from .buffered import BufferedHistogram
from .families import (
    BUS_RECONNECTS,
    COMMIT_SECONDS,
    FAIRPLAY_FLAGS,
    FAIRPLAY_GAMES,
    FAST_BUCKETS,
    LEASE_LOSSES,
    REDIS_ROUND_TRIP,
    RESYNCS,
    ROOMS_ACTIVE,
    UNAVAILABLE,
)

__all__ = ["PrometheusSink", "install_sink"]


class PrometheusSink:
    """rooms.common.metrics.Sink into server.metrics.families."""

    __slots__ = ("_commits", "_resyncs", "_round_trips", "_unavailable")

    def __init__(self) -> None:
        self._unavailable: dict[str, Any] = {}
        self._resyncs: dict[str, Any] = {}
        # one of each per move: buffered (server.metrics.buffered)
        self._commits = BufferedHistogram(COMMIT_SECONDS, FAST_BUCKETS)
        self._round_trips = BufferedHistogram(REDIS_ROUND_TRIP, FAST_BUCKETS)

    def commit(self, seconds: float) -> None:
        self._commits.observe(seconds)

    def redis_round_trip(self, seconds: float) -> None:
        self._round_trips.observe(seconds)

    def unavailable(self, operation: str) -> None:
        child = self._unavailable.get(operation)
        if child is None:
            child = self._unavailable[operation] = UNAVAILABLE.labels(operation)
        child.inc()

    def bus_reconnect(self) -> None:
        BUS_RECONNECTS.inc()

    def resync(self, kind: str) -> None:
        child = self._resyncs.get(kind)
        if child is None:
            child = self._resyncs[kind] = RESYNCS.labels(kind)
        child.inc()

    def lease_lost(self) -> None:
        LEASE_LOSSES.inc()

    def rooms(self, count: int) -> None:
        ROOMS_ACTIVE.set(count)

    def fairplay(self, *, newly_flagged: int) -> None:
        FAIRPLAY_GAMES.inc()
        if newly_flagged:
            FAIRPLAY_FLAGS.inc(newly_flagged)


_SINK = PrometheusSink()


def install_sink() -> None:
    """Make rooms/ report to Prometheus (idempotent: one sink per process)."""
    metrics.install(_SINK)
