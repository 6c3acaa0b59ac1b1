"""How long a bench player thinks before each move.

People do not move on a metronome, and a load whose players do measures something no server
meets: with the same think time before every move, whatever delays a few moves together delays
their answers together too, so those games stay in step at every later move, the next delay
gathers more of them, and the load turns into bursts every ``think`` seconds that a steady rate
of the same mean never has (the slower the server, the larger the bursts).

So each think time is drawn uniformly from ``mean × [1 − spread, 1 + spread]``: the mean, and so
the rate of moves, is kept; the phases are not. A spread of 0 is the metronome.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

__all__ = ["SPREAD", "Think"]

SPREAD = 0.5
"""The default spread: think times from half the mean to one and a half times it."""


@dataclass(frozen=True, slots=True)
class Think:
    mean: float = 0.0
    """Seconds on average (0: answer at once)."""
    spread: float = 0.0
    """How far a draw may stray from the mean, as a fraction of it (0 to 1)."""
    rng: random.Random = field(default_factory=random.Random, compare=False, repr=False)
    """Seeded per load process, so that a run can be repeated draw for draw."""

    def __post_init__(self) -> None:
        if not self.mean >= 0:
            raise ValueError(f"the mean think time must be at least 0 s, not {self.mean!r}")
        if not 0 <= self.spread <= 1:
            raise ValueError(f"the think spread must be from 0 to 1, not {self.spread!r}")

    @property
    def longest(self) -> float:
        """The longest think time a draw can give."""
        return self.mean * (1 + self.spread)

    def pause(self) -> float:
        """The next think time, in seconds."""
        if self.spread == 0 or self.mean == 0:
            return self.mean
        return self.mean * (1 + self.spread * (2 * self.rng.random() - 1))
