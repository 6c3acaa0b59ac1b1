"""Open loop: every game's moves fall due on a clock, whatever the server answers.

A closed loop (a player moves when it has seen the opponent's move, after its think time)
offers whatever the server can take: a slow server slows its own load, and its latency is
never judged at the rate users bring. Here each game slot of a load process (a ``Lane``:
game after game) has moves due every ``1 / rate`` seconds, and each game a ``Clock`` when it
begins: its move ``k`` is due ``k / rate`` seconds after the lane's next due time (its first
game's: the moment it begins). The mover sends a move at its due time if its turn has come
by then, else as soon as the turn comes, late, and the schedule does not move: later moves
are due when they always were, so a server that falls behind stays behind and the lag
shows. A new room (or a rematch) between two games is made within the interval after the
last move: G lanes offer exactly G × rate moves a second.

A load process counts, for the measured window, the moves that fell due, how late each was
sent (``late``: below saturation only the load process's own timer slack; a move goes out
later only when its turn came late, the opponent's move taking more than an interval to
arrive), and at the window's end the moves due and not yet sent (``backlog``).
"""

from __future__ import annotations

import asyncio
import math
from dataclasses import dataclass, field
from time import perf_counter

from .recorder import Recorder

__all__ = ["Clock", "Lane", "Schedule"]


@dataclass(eq=False, slots=True)
class Lane:
    """One game slot's succession of games on the schedule."""

    schedule: Schedule
    next_due: float | None = None
    """When the next game's first move is due (None: when it begins)."""

    def begin(self, plies: int) -> Clock:
        """The clock of a game of ``plies`` moves beginning now (``done`` at its end)."""
        begun = perf_counter() if self.next_due is None else self.next_due
        clock = Clock(self, plies, begun)
        self.schedule.live.add(clock)
        return clock


@dataclass(eq=False, slots=True)
class Clock:
    """One game's timetable: ``plies`` moves, move ``k`` due at ``begun + k / rate``."""

    lane: Lane
    plies: int
    begun: float
    sent: int = 0

    @property
    def schedule(self) -> Schedule:
        return self.lane.schedule

    def due(self, ply: int) -> float:
        return self.begun + ply / self.schedule.rate

    async def wait(self, ply: int) -> None:
        """Until move ``ply`` is due (at once when its turn came late); the lateness is
        recorded for a move due inside the window."""
        due = self.due(ply)
        now = perf_counter()
        if now < due:
            await asyncio.sleep(due - now)
            now = perf_counter()  # the timer's slack, and the load process's own lag
        self.sent = ply + 1
        recorder = self.schedule.recorder
        if recorder.inside(due):
            recorder.due += 1
            recorder.late.append(max(0.0, now - due))

    def owed(self, start: float, end: float) -> int:
        """Moves due in [start, end) and not sent yet."""
        rate = self.schedule.rate
        first = max(self.sent, math.ceil((start - self.begun) * rate))
        last = min(self.plies, math.ceil((end - self.begun) * rate))  # exclusive
        return max(0, last - first)

    def done(self) -> None:
        """The game is over: the lane's next move is due an interval after its last."""
        self.schedule.live.discard(self)
        self.lane.next_due = self.due(self.sent)


@dataclass(slots=True)
class Schedule:
    """A load process's open loop: ``rate`` moves a second in every game."""

    rate: float
    recorder: Recorder
    live: set[Clock] = field(default_factory=set)

    def __post_init__(self) -> None:
        if not self.rate > 0:
            raise ValueError(f"the open loop's rate must be above 0, not {self.rate!r}")

    def lane(self) -> Lane:
        return Lane(self)

    def backlog(self) -> int:
        """Moves due inside the window and not sent (call at the window's end)."""
        start, end = self.recorder.start, self.recorder.end
        return sum(clock.owed(start, end) for clock in self.live)
