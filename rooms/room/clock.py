"""The players' clocks of a room with a time control (pure: ``now`` is always passed in).

A clock runs only for the side to move, and only once that side has made its first move;
before it, the side's first move has its own limit (``first_move`` seconds from when it
got the turn), so a game cannot be left hanging. ``turn_started`` (kept by the room) is
when the side to move got the turn; what it spent since is charged when it moves.

A correspondence clock (``TimeControl.days``) gives every move the whole allowance: a move
sets the mover's clock back to it, so the deadline is always the turn's start plus it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from rooms.room.config import TimeControl

__all__ = ["Clock", "Deadline"]


@dataclass(frozen=True, slots=True)
class Deadline:
    """When the side to move (``mark``) runs out: its flag, or its first-move limit."""

    mark: str
    at: float
    first_move: bool


@dataclass(slots=True)
class Clock:
    control: TimeControl
    remaining: dict[str, float] = field(default_factory=dict)

    @classmethod
    def fresh(cls, control: TimeControl, marks: Iterable[str]) -> Clock:
        return cls(control, dict.fromkeys(marks, control.initial))

    def deadline(self, mark: str, *, started: float, first_move: bool) -> Deadline:
        if first_move:
            return Deadline(mark, started + self.control.first_move, True)
        return Deadline(mark, started + self.remaining[mark], False)

    def charge(self, mark: str, *, started: float, now: float, increment: bool) -> None:
        """``mark`` ends its turn at ``now`` (a move with ``increment``, or the game's end)."""
        if self.control.days and increment:  # a correspondence move: the next one has it all
            self.remaining[mark] = self.control.initial
            return
        left = max(self.remaining[mark] - max(now - started, 0.0), 0.0)
        self.remaining[mark] = left + (self.control.increment if increment else 0.0)

    def view(
        self, running: str | None, *, started: float | None, now: float, deadline: Deadline | None
    ) -> dict[str, Any]:
        remaining = dict(self.remaining)
        if running is not None and started is not None:
            remaining[running] = max(remaining[running] - max(now - started, 0.0), 0.0)
        return {
            **self.control.to_dict(),
            "remaining": {mark: round(left, 3) for mark, left in remaining.items()},
            "running": running,
            "deadline": deadline.at if deadline is not None else None,
        }

    def copy(self) -> Clock:
        """An independent clock in the same state (the time control is immutable: shared)."""
        return Clock(self.control, self.remaining.copy())

    def to_dict(self) -> dict[str, Any]:
        return {"control": self.control.to_dict(), "remaining": dict(self.remaining)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Clock:
        return cls(
            TimeControl(**data["control"]),
            {str(mark): float(left) for mark, left in data["remaining"].items()},
        )
