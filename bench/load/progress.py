"""A one-line progress bar on stderr (hand-written: ten lines do not need a dependency).

Drawn only on a terminal; in a pipe or a test it stays silent, so logs hold results only.
"""

from __future__ import annotations

import sys
from typing import TextIO

from .worker import Progress

__all__ = ["ProgressBar"]

WIDTH = 24


class ProgressBar:
    def __init__(
        self, label: str, total: float, *, stream: TextIO | None = None, enabled: bool | None = None
    ) -> None:
        self.label = label
        self.total = total
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self._last: tuple[float, int] = (0.0, 0)
        self._rate = 0.0

    def update(self, progress: Progress) -> None:
        if not self.enabled:
            return
        elapsed, moves = progress.elapsed, progress.moves
        then, before = self._last
        if elapsed - then >= 1.0:  # moves/s over the last second or so, not since the start
            self._rate = (moves - before) / (elapsed - then)
            self._last = (elapsed, moves)
        done = min(1.0, max(0.0, elapsed / self.total))
        bar = "#" * round(done * WIDTH)
        self.stream.write(
            f"\r{self.label} [{bar:<{WIDTH}}] {max(elapsed, 0):5.1f}/{self.total:.0f} s  "
            f"moves {moves:,} ({self._rate:,.0f}/s)  games {progress.games:,}  "
            f"open {progress.connections:,}  errors {progress.errors:,}\x1b[K"
        )
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
