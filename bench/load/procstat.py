"""CPU time and resident memory of process trees (a server and its uvicorn workers; in the
affinity deployment, HAProxy and the servers behind it).

CPU is user + system seconds summed over the trees, so ``cpu_percent`` can pass 100 with
several workers (100 = one core busy). RSS is summed too: with workers that counts the
supervisor process as well, which only matters for absolute figures, not for deltas.
psutil comes with the ``bench`` extra and is imported only here, when a tree is measured,
so that ``tictactoe bench`` can say which extra is missing (cli/bench.py).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import psutil

__all__ = ["ProcessTree", "load_average"]


class ProcessTree:
    """The process trees rooted at ``pids`` (one pid, or several measured as one)."""

    def __init__(self, pids: int | Sequence[int]) -> None:
        import psutil

        self._error: type[Exception] = psutil.Error
        self.roots = [psutil.Process(pid) for pid in ([pids] if isinstance(pids, int) else pids)]
        self._cpu_mark = 0.0
        self._wall_mark = 0.0
        self.rss_peak = 0

    def processes(self) -> list[psutil.Process]:
        found = []
        for root in self.roots:
            with contextlib.suppress(self._error):
                found += [root, *root.children(recursive=True)]
        return found

    def cpu_seconds(self) -> float:
        total = 0.0
        for process in self.processes():
            with contextlib.suppress(self._error):
                times = process.cpu_times()
                total += times.user + times.system
        return total

    def rss(self) -> int:
        total = 0
        for process in self.processes():
            with contextlib.suppress(self._error):
                total += process.memory_info().rss
        self.rss_peak = max(self.rss_peak, total)
        return total

    def mark(self, now: float) -> None:
        """Start a CPU measurement at monotonic time ``now``."""
        self._cpu_mark = self.cpu_seconds()
        self._wall_mark = now

    def since_mark(self, now: float) -> tuple[float, float]:
        """(CPU seconds, wall seconds) since ``mark``."""
        return self.cpu_seconds() - self._cpu_mark, now - self._wall_mark


def load_average() -> list[float]:
    """The 1, 5 and 15 minute load averages (the conditions a figure was measured in)."""
    return [round(value, 2) for value in os.getloadavg()]
