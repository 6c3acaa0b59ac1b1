"""This worker's open WebSockets against ``--max-connections``, and the file limit it needs.

Each WebSocket holds a file descriptor and its buffers; past the limit a new one is
accepted and closed at once with 1013 (try again later), so the client gets a code it can
back off on instead of a bare handshake failure, and ``/readyz`` answers 503 from 90 % on,
so a balancer sends new clients elsewhere before the worker is full. uvicorn's own
``limit_concurrency`` is not used: it counts HTTP requests too and would answer the
readiness probe itself with a bare 503.
"""

from __future__ import annotations

import resource

__all__ = ["FD_MARGIN", "ConnectionLimit", "fit_file_limit"]

FD_MARGIN = 256
"""Descriptors a worker needs besides its WebSockets: the store, HTTP requests, files."""


class ConnectionLimit:
    """Open WebSockets of this process (single-threaded: the event loop's)."""

    __slots__ = ("limit", "open")

    def __init__(self, limit: int) -> None:
        if limit < 1:
            raise ValueError(f"a connection limit must be 1 or more, got {limit}")
        self.limit = limit
        self.open = 0

    def take(self) -> bool:
        """Count one more connection, unless the limit is reached."""
        if self.open >= self.limit:
            return False
        self.open += 1
        return True

    def release(self) -> None:
        self.open -= 1

    @property
    def near_full(self) -> bool:
        """At 90 % of the limit or above: time for new clients to go elsewhere."""
        return self.open * 10 >= self.limit * 9


def fit_file_limit(max_connections: int) -> str | None:
    """Raise this process's soft ``RLIMIT_NOFILE`` (inherited by its workers) towards what
    ``max_connections`` needs, up to the hard limit; a warning when it stays short."""
    needed = max_connections + FD_MARGIN
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft == resource.RLIM_INFINITY or soft >= needed:
        return None
    target = needed if hard == resource.RLIM_INFINITY else min(needed, hard)
    if target > soft:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
        soft = target
    if soft >= needed:
        return None
    return (
        f"--max-connections {max_connections} needs about {needed} open files per worker, "
        f"but the limit is {soft} (ulimit -n; docs/operations.md, Limits)"
    )
