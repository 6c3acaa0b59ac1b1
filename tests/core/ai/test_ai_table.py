"""The transposition table stays within its size, keeps the deepest entry of a bucket,
holds one entry a key, and a solver with a tiny table still proves exactly."""

from __future__ import annotations

import random

from core import Game, Rules
from core.ai import Solver, Verdict, solve
from core.ai.table import TranspositionTable


def test_the_table_never_holds_more_than_its_capacity() -> None:
    table = TranspositionTable(10)
    rng = random.Random(1)
    for key in rng.sample(range(10**9), 5_000):
        table.put(key, rng.randrange(30), key * 2)
        assert len(table) <= table.capacity
    assert len(table) == table.capacity  # full, never cleared
    assert table.stores == 5_000


def test_a_bucket_keeps_its_deepest_entry_and_the_newest() -> None:
    table = TranspositionTable(1)  # one bucket (the next prime: 2): keys 0, 2, 4, ... share it
    table.put(0, 20, "deep")
    for key in range(2, 40, 2):
        table.put(key, 3, f"shallow {key}")
    assert table.get(0) == "deep"  # shallow work never evicts deep work
    assert table.get(38) == "shallow 38"  # the recent slot holds the newest
    assert table.get(36) is None
    table.put(40, 25, "deeper")
    assert (table.get(40), table.get(0)) == ("deeper", "deep")  # the old deep moved down


def test_one_entry_a_key() -> None:
    table = TranspositionTable(7)
    table.put(5, 1, "first")
    table.put(5 + 7 * 2, 9, "deep")  # same bucket, takes the deep slot, "first" moves down
    table.put(5, 10, "again")  # deeper still: the deep slot, over the demoted "deep"
    assert table.get(5) == "again" and table.get(5 + 7 * 2) == "deep"
    assert len(table) == 2


def test_a_solver_with_a_tiny_table_is_still_exact() -> None:
    """Evictions cost time, never truth: 4×4 k=4 is a draw with 2 × 31 entries."""
    solver = Solver(Rules(4, 4, 4), table_buckets=31)
    result = solve(Game(Rules(4, 4, 4)), solver=solver, all_best=False)
    assert (result.value, result.proven) == (Verdict.DRAW, True)
    assert solver.table_size <= 2 * 31
