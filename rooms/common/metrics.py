"""Where rooms/ reports what operators count: a sink that server/ installs at startup.

rooms/ imports no metrics library and never server/: at the few points worth counting (a
commit, a Redis round trip, an ``unavailable``, a bus reconnect or resync, a lost lease, the
rooms this worker listens to, a game judged for fair play) it calls the module's ``sink``,
a no-op until ``install`` replaces it (server.metrics installs the Prometheus one).
Process-wide, as the metrics are. Each call must stay a few counter increments: some run
once per move.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["NullSink", "Sink", "install", "sink"]


class Sink(Protocol):
    def commit(self, seconds: float) -> None:
        """A compare-and-set commit took ``seconds`` (won or lost)."""

    def redis_round_trip(self, seconds: float) -> None:
        """One round trip to Redis (a pipeline of commands, or one command) took ``seconds``."""

    def unavailable(self, operation: str) -> None:
        """The store could not be reached for ``operation`` (a fixed name: commit, load...)."""

    def bus_reconnect(self) -> None:
        """The pub/sub connection was made again after it broke."""

    def resync(self, kind: str) -> None:
        """A room's events redelivered after a reconnect (``bus``), or a connection's
        version gap repaired from the store (``gap``)."""

    def lease_lost(self) -> None:
        """This worker's presence lease was lost (its connections are closed to resume)."""

    def rooms(self, count: int) -> None:
        """This worker now listens to ``count`` rooms (rooms with a connection here)."""

    def fairplay(self, *, newly_flagged: int) -> None:
        """A finished game was judged against the solver and counted (rooms.fairplay), and
        ``newly_flagged`` of its players became flagged by it."""


class NullSink:
    """Counts nothing: rooms/ on its own, and every process until server/ installs one."""

    __slots__ = ()

    def commit(self, seconds: float) -> None:
        pass

    def redis_round_trip(self, seconds: float) -> None:
        pass

    def unavailable(self, operation: str) -> None:
        pass

    def bus_reconnect(self) -> None:
        pass

    def resync(self, kind: str) -> None:
        pass

    def lease_lost(self) -> None:
        pass

    def rooms(self, count: int) -> None:
        pass

    def fairplay(self, *, newly_flagged: int) -> None:
        pass


sink: Sink = NullSink()
"""Read it at each use (``metrics.sink.commit(...)``), never bind it once: ``install``
replaces it."""


def install(new: Sink | None) -> None:
    """Report to ``new`` from now on (None: count nothing again)."""
    global sink  # noqa: PLW0603 -- the seam is this module attribute, read at each use
    sink = new if new is not None else NullSink()
