"""What one load process counts, and how samples become percentiles.

Only moves *sent* inside the measured window count (the warm-up before it and the drain
after it are left out), so every process measures the same span of time whatever its
games were doing when the window opened. Latencies are kept as raw samples (seconds, in
``array('d')``: 8 bytes each, cheap to send to the parent process and merge exactly).
"""

from __future__ import annotations

import math
from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Recorder", "merge", "summarize"]


@dataclass(slots=True)
class Recorder:
    start: float
    """perf_counter() at which the measured window opens."""
    end: float
    """perf_counter() at which it closes."""
    opponent: array[float] = field(default_factory=lambda: array("d"))
    """Seconds from a move being sent to the opponent receiving its ``moved``."""
    spectator: array[float] = field(default_factory=lambda: array("d"))
    """Seconds from a move being sent to a spectator receiving its ``moved``."""
    moves: int = 0
    """Moves sent inside the window and acknowledged (``move_ok``)."""
    moves_total: int = 0
    """Every acknowledged move, window or not (for the progress bar)."""
    games: int = 0
    """Games played to their end (window or not)."""
    unfinished: int = 0
    """Games still in flight when the drain ended (cancelled; not errors, but a run where
    every game is unfinished is one where nothing moved)."""
    errors: Counter[str] = field(default_factory=Counter)
    cpu_s: float = 0.0
    """CPU seconds the load process itself used during the window."""
    full_collections: int = 0
    """Full garbage collections of the load process itself inside the window (pauses of
    the instrument, bench.load.worker's ``settle``: there should be none)."""
    due: int = 0
    """Open loop (bench.load.schedule): moves due inside the window and sent."""
    late: array[float] = field(default_factory=lambda: array("d"))
    """Open loop: seconds each of those was sent after its due time."""
    backlog: int = 0
    """Open loop: moves due inside the window and not yet sent at its end."""
    opened: int = 0
    """WebSocket connections opened."""
    open_now: int = 0
    peak: int = 0
    """Most WebSocket connections open at once."""

    def inside(self, sent: float) -> bool:
        return self.start <= sent < self.end

    def acked(self, sent: float) -> None:
        self.moves_total += 1
        if self.start <= sent < self.end:
            self.moves += 1

    def opened_one(self) -> None:
        self.opened += 1
        self.open_now += 1
        self.peak = max(self.peak, self.open_now)

    def closed_one(self) -> None:
        self.open_now -= 1

    def error(self, kind: str) -> None:
        self.errors[kind] += 1

    def result(self) -> dict[str, Any]:
        """A picklable summary for the parent process (samples included)."""
        return {
            "opponent": self.opponent,
            "spectator": self.spectator,
            "moves": self.moves,
            "moves_total": self.moves_total,
            "games": self.games,
            "unfinished": self.unfinished,
            "errors": dict(self.errors),
            "opened": self.opened,
            "peak": self.peak,
            "cpu_s": self.cpu_s,
            "full_collections": self.full_collections,
            "due": self.due,
            "late": self.late,
            "backlog": self.backlog,
        }


def merge(results: Iterable[dict[str, Any]], *, side_by_side: bool = True) -> dict[str, Any]:
    """Several results as one: of processes running side by side (their peaks of open
    connections add up, as do their processes), or of windows one after the other (the
    peak is the highest, the processes those of one window)."""
    merged: dict[str, Any] = {
        "opponent": array("d"),
        "spectator": array("d"),
        "moves": 0,
        "moves_total": 0,
        "games": 0,
        "unfinished": 0,
        "errors": Counter(),
        "opened": 0,
        "peak": 0,
        "cpu_s": 0.0,
        "full_collections": 0,
        "procs": 0,
        "due": 0,
        "late": array("d"),
        "backlog": 0,
    }
    crowds = []
    for result in results:
        if result.get("crowd"):
            crowds.append(result["crowd"])
        merged["opponent"].extend(result["opponent"])
        merged["spectator"].extend(result["spectator"])
        merged["late"].extend(result.get("late", ()))
        merged["errors"].update(result["errors"])
        for key in (
            "moves",
            "moves_total",
            "games",
            "unfinished",
            "opened",
            "cpu_s",
            "full_collections",
        ):
            merged[key] += result[key]
        merged["due"] += result.get("due", 0)
        merged["backlog"] += result.get("backlog", 0)
        if side_by_side:
            merged["peak"] += result["peak"]
            merged["procs"] += result.get("procs", 1)
        else:
            merged["peak"] = max(merged["peak"], result["peak"])
            merged["procs"] = max(merged["procs"], result.get("procs", 1))
    merged["errors"] = dict(merged["errors"])
    if crowds:  # crowd mode (bench.load.crowd): spectators joined, deliveries expected/missed
        merged["crowd"] = {
            key: sum(c[key] for c in crowds) for key in ("expected", "missed", "early")
        }
        for key in ("watchers", "rooms"):
            values = [c[key] for c in crowds]
            merged["crowd"][key] = sum(values) if side_by_side else max(values)
    return merged


def _rank(ordered: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile: the smallest sample with ``fraction`` of them at or
    below it (no interpolation, so p99 is always a latency that really happened)."""
    index = max(0, math.ceil(fraction * len(ordered)) - 1)
    return ordered[index]


def summarize(samples: Sequence[float]) -> dict[str, float | int | None]:
    """count, p50, p95, p99, max and mean in milliseconds (None without samples)."""
    if not samples:
        return {"count": 0, "p50": None, "p95": None, "p99": None, "max": None, "mean": None}
    ordered = sorted(samples)
    return {
        "count": len(ordered),
        "p50": _rank(ordered, 0.50) * 1000,
        "p95": _rank(ordered, 0.95) * 1000,
        "p99": _rank(ordered, 0.99) * 1000,
        "max": ordered[-1] * 1000,
        "mean": sum(ordered) / len(ordered) * 1000,
    }
