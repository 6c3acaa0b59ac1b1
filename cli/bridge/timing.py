"""How long the engine may think for one move: the bridge's cap, and less on a short clock.

docs/engine-protocol.md, "Time": at most ``--move-time``; with a clock, a twentieth of the
time left plus half the increment, never under MIN_MOVETIME; on a player's first move the
room's first-move limit counts as the time left (the clock does not run before it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .protocol import ClockTimes

__all__ = ["MIN_MOVETIME", "clock_times", "movetime_for"]

MIN_MOVETIME = 0.05
CLOCK_SHARE = 1 / 20
INCREMENT_SHARE = 0.5


def clock_times(clock: Mapping[str, Any] | None) -> ClockTimes | None:
    """The room's ``clock`` (docs/protocol.md, the snapshot) as the engine is told it."""
    if not clock:
        return None
    remaining = {str(mark): float(left) for mark, left in clock["remaining"].items()}
    return ClockTimes(remaining, float(clock["increment"]))


def movetime_for(
    cap: float, clock: Mapping[str, Any] | None, mark: str, *, first_move: bool
) -> float:
    """Seconds the engine is given for ``mark``'s move."""
    times = clock_times(clock)
    if clock is None or times is None or mark not in times.remaining:
        return cap
    left = times.remaining[mark]
    if first_move and clock.get("first_move") is not None:
        left = min(left, float(clock["first_move"]))
    share = left * CLOCK_SHARE + times.increment * INCREMENT_SHARE
    return max(MIN_MOVETIME, min(cap, share))
