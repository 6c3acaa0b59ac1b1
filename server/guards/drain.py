"""A worker's drain: from SIGTERM (with a drain period) or SIGUSR1, ``/readyz`` answers 503
``draining`` so the balancer sends new clients to other servers, while the games on this
one go on; the worker closes its WebSockets (1012) only once the period has passed
(server.launch.worker decides when)."""

from __future__ import annotations

import time

__all__ = ["Drain"]


class Drain:
    """Whether this worker drains, and since when (monotonic seconds)."""

    __slots__ = ("since",)

    def __init__(self) -> None:
        self.since: float | None = None

    @property
    def draining(self) -> bool:
        return self.since is not None

    def start(self) -> None:
        """From now on, if not already (a second signal keeps the first start)."""
        if self.since is None:
            self.since = time.monotonic()

    def ends(self, period: float) -> float:
        """When a drain of ``period`` seconds that starts now, or started already, ends."""
        self.start()
        assert self.since is not None
        return self.since + period
