"""What the soak's clients count while it runs, by the fault in progress when it happened.

``current`` names the last fault injected (``"none"`` before the first); a client reads it
when its connection drops, and the reconnect it then makes counts for that fault kind, as
does an ``unavailable`` error. The run's schedule sets ``current``.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["NO_FAULT", "Tally", "Targets", "percentile"]

NO_FAULT = "none"


def percentile(samples: Sequence[float], fraction: float) -> float | None:
    """Nearest-rank percentile (``None`` without samples)."""
    if not samples:
        return None
    ordered = sorted(samples)
    rank = max(1, min(len(ordered), math.ceil(fraction * len(ordered) - 1e-9)))
    return ordered[rank - 1]


@dataclass(slots=True)
class Tally:
    current: str = NO_FAULT
    started: float = field(default_factory=time.monotonic)
    """When the soak began to play: the clients' trails and the faults are timed from it."""
    timeline: list[dict[str, Any]] = field(default_factory=list)
    """Each fault injected: its kind, when (``at``, seconds since ``started``) and the
    seconds it took the system to recover (``recovered_s``)."""
    reconnects: dict[str, list[float]] = field(default_factory=dict)
    """Seconds from a drop noticed to the ``welcome`` on a new connection, by fault kind."""
    unavailable: Counter[str] = field(default_factory=Counter)
    drops: Counter[str] = field(default_factory=Counter)

    def dropped(self) -> str:
        self.drops[self.current] += 1
        return self.current

    def reconnected(self, kind: str, seconds: float) -> None:
        self.reconnects.setdefault(kind, []).append(seconds)

    def saw_unavailable(self) -> None:
        self.unavailable[self.current] += 1

    def injected(self, kind: str, at: float, recovered: float) -> None:
        """The fault ``kind`` began at ``time.monotonic()`` ``at`` and took ``recovered`` s."""
        self.timeline.append(
            {"fault": kind, "at": round(at - self.started, 1), "recovered_s": round(recovered, 1)}
        )


@dataclass(slots=True)
class Targets:
    """The servers clients may use: ``live()`` lists base URLs (``http://host:port``) of
    those that run now; clients pick one at random for every connection."""

    live: Callable[[], list[str]]
    rng: random.Random = field(default_factory=random.Random)

    def pick(self, avoid: str | None = None) -> str | None:
        urls = self.live()
        others = [url for url in urls if url != avoid] or urls
        return self.rng.choice(others) if others else None
