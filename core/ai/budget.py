"""How long a search may think: a time limit, a node (or playout) limit, or both.

The engine itself never reads a clock; a budgeted search has to. It reads one only through
the ``clock`` a ``Deadline`` is given (``time.perf_counter`` unless a test injects another),
so a budget of nodes alone is fully deterministic and a time budget is easy to fake.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass

from .errors import BadBudget

__all__ = ["DEFAULT_BUDGET", "UNLIMITED", "Budget", "Deadline", "OutOfBudget", "as_budget"]

Clock = Callable[[], float]


class OutOfBudget(Exception):
    """Raised inside a search to unwind it when the budget is spent (never escapes one)."""


@dataclass(frozen=True, slots=True)
class Budget:
    """``seconds`` of thinking and/or ``nodes`` searched (playouts for MCTS); None: no limit.

    ``Budget(None, None)`` is unlimited: the solver then runs until it has proved the value.
    """

    seconds: float | None = 1.0
    nodes: int | None = None

    def __post_init__(self) -> None:
        if self.seconds is not None:
            bad = isinstance(self.seconds, bool) or not isinstance(self.seconds, int | float)
            if bad or not math.isfinite(self.seconds) or self.seconds <= 0:
                raise BadBudget(f"seconds must be a positive number or None, got {self.seconds!r}")
        nodes = self.nodes
        whole = isinstance(nodes, int) and not isinstance(nodes, bool)
        if nodes is not None and (not whole or nodes <= 0):
            raise BadBudget(f"nodes must be a positive whole number or None, got {nodes!r}")

    @property
    def unlimited(self) -> bool:
        return self.seconds is None and self.nodes is None


DEFAULT_BUDGET = Budget()
UNLIMITED = Budget(None, None)


def as_budget(budget: Budget | float | None) -> Budget:
    """A Budget from a Budget, a number of seconds, or None (the default: one second)."""
    if budget is None:
        return DEFAULT_BUDGET
    if isinstance(budget, Budget):
        return budget
    if isinstance(budget, bool) or not isinstance(budget, int | float):
        raise BadBudget(f"a budget is a Budget or a number of seconds, got {budget!r}")
    return Budget(seconds=float(budget))


class Deadline:
    """Counts nodes and looks at the clock every ``check_every`` nodes (clock reads cost).

    ``tick()`` is called once per node; it raises OutOfBudget once the budget is spent.
    ``on_check`` (optional) is called at every clock look, e.g. to report progress.
    """

    __slots__ = (
        "_check_every",
        "_clock",
        "_countdown",
        "_end",
        "_max_nodes",
        "nodes",
        "on_check",
        "started",
    )

    def __init__(
        self,
        budget: Budget,
        *,
        clock: Clock = time.perf_counter,
        check_every: int = 256,
        on_check: Callable[[Deadline], None] | None = None,
    ) -> None:
        self._clock = clock
        self.started = clock()
        self._end = None if budget.seconds is None else self.started + budget.seconds
        self._max_nodes = budget.nodes
        self._check_every = check_every
        self._countdown = check_every
        self.nodes = 0
        self.on_check = on_check

    def tick(self) -> None:
        self.nodes += 1
        if self._max_nodes is not None and self.nodes > self._max_nodes:
            raise OutOfBudget
        self._countdown -= 1
        if self._countdown <= 0:
            self._countdown = self._check_every
            if self.on_check is not None:
                self.on_check(self)
            if self._end is not None and self._clock() >= self._end:
                raise OutOfBudget

    def spent(self) -> bool:
        """True when the budget is used up (checked now, without raising)."""
        if self._max_nodes is not None and self.nodes >= self._max_nodes:
            return True
        return self._end is not None and self._clock() >= self._end

    def elapsed(self) -> float:
        return self._clock() - self.started
