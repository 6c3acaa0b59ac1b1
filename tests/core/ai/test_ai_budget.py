"""Budgets: validated, and a deadline that stops on nodes or on an injected clock."""

from __future__ import annotations

import pytest

from core.ai import DEFAULT_BUDGET, BadBudget, Budget
from core.ai.budget import Deadline, OutOfBudget, as_budget


def test_as_budget_accepts_budgets_seconds_and_none() -> None:
    assert as_budget(None) == DEFAULT_BUDGET == Budget(seconds=1.0)
    assert as_budget(0.25) == Budget(seconds=0.25)
    assert as_budget(Budget(None, 10)) == Budget(None, 10)
    with pytest.raises(BadBudget, match="'soon'"):
        as_budget("soon")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("seconds", "nodes"), [(-1.0, None), (0, None), (float("inf"), None), (None, -5), (1.0, 2.5)]
)
def test_bad_budgets_name_the_value(seconds: object, nodes: object) -> None:
    with pytest.raises(BadBudget, match="must be"):
        Budget(seconds, nodes)  # type: ignore[arg-type]


def test_a_node_budget_stops_after_exactly_that_many_nodes() -> None:
    deadline = Deadline(Budget(seconds=None, nodes=50))
    for _ in range(50):
        deadline.tick()
    assert deadline.spent()
    with pytest.raises(OutOfBudget):
        deadline.tick()


def test_a_time_budget_reads_only_the_injected_clock() -> None:
    now = [100.0]
    checks: list[int] = []
    deadline = Deadline(
        Budget(seconds=2.0),
        clock=lambda: now[0],
        check_every=10,
        on_check=lambda d: checks.append(d.nodes),
    )
    for _ in range(25):
        deadline.tick()
    assert checks == [10, 20] and not deadline.spent()
    now[0] = 102.5
    assert deadline.spent() and deadline.elapsed() == 2.5
    with pytest.raises(OutOfBudget):
        for _ in range(10):
            deadline.tick()
