"""The compiled searches (core/ai/_search.c) against their pure-Python twins: the very same
trees (values, best moves, distances, node counts, table entries) on every kind of rules
they hold, the
budget obeyed alike, the pure search where C cannot go, and the fallback without the module.
The solver's own tests run on the compiled one, and one sweep of them on both (conftest.py).
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, reject

from core import Game, Rules
from core.ai import Budget, Solver
from core.ai.bitboard import bit_layout
from core.ai.budget import OutOfBudget
from core.ai.solve import root_distance
from core.ai.speedups import PURE_ENV, compiled_built
from tests.core.ai.ai_reference import sampled_positions
from tests.core.ai.implementations import require_compiled
from tests.core.engine_helpers import PROPERTY_SETTINGS, choice_lists, play_choices, small_rules

ROOT = Path(__file__).resolve().parents[3]

RULES = [
    Rules(3, 3, 3),
    Rules(3, 3, 3, misere=True),
    Rules(4, 4, 4),
    Rules(4, 5, 4, gravity=True),
    Rules(4, 4, 3, gravity=True, misere=True),
    Rules(3, 6, 5),  # k of 5: the general line tests
    Rules(2, 3, 2),
    Rules(3, 3, 1),
    Rules(3, 3, 3, layers=3),
    Rules(2, 2, 2, layers=2, gravity=True),
]


def both(rules: Rules, monkeypatch: pytest.MonkeyPatch) -> tuple[Solver, Solver]:
    """(compiled, pure) solvers for ``rules``."""
    monkeypatch.delenv(PURE_ENV, raising=False)
    compiled = Solver(rules)
    monkeypatch.setenv(PURE_ENV, "1")
    pure = Solver(rules)
    monkeypatch.delenv(PURE_ENV)
    assert (compiled.implementation, pure.implementation) == ("compiled", "pure")
    return compiled, pure


def agree(compiled: Solver, pure: Solver, game: Game, budget: Budget) -> None:
    """Both prove the same (value, best move) in the same nodes, then for a win or a loss
    the same distance to the end in the same nodes, or both run out at the same node."""
    answers = []
    for solver in (compiled, pure):
        position = solver.start(game, budget)
        try:
            value, move = solver.best(position)
            answer: object = (value, move, solver.nodes, solver.table_size)
            if value:
                solver.start(game, budget)
                answer = (answer, root_distance(solver, position, value), solver.nodes)
        except OutOfBudget:
            answer = ("out of budget", solver.nodes)
        answers.append(answer)
    assert answers[0] == answers[1], game.board.text


def test_the_compiled_search_is_built_here() -> None:
    require_compiled()
    assert compiled_built()


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.describe())
def test_the_same_tree_as_the_pure_search(rules: Rules, monkeypatch: pytest.MonkeyPatch) -> None:
    require_compiled()
    """Sampled positions of one game, in turn through one pair of solvers: the tables fill
    alike, so every later search meets the same entries too."""
    compiled, pure = both(rules, monkeypatch)
    budget = Budget(seconds=None, nodes=10_000)
    for text in sampled_positions(Game(rules), 25, seed=5):
        game = Game.from_position(rules, text)
        if not game.is_over:
            agree(compiled, pure, game, budget)
    position = compiled.start(Game(rules))
    for move in compiled.moves(position):
        key = compiled.canonical_key_of(*compiled.child(position, move))[0]
        assert compiled.table.get(key) == pure.table.get(key)


@given(rules=small_rules(), choices=choice_lists(12))
@PROPERTY_SETTINGS
def test_any_rules_any_position_the_same_answer(rules: Rules, choices: list[int]) -> None:
    require_compiled()
    if rules.players != 2 or bit_layout(rules).bits > 64:
        reject()
    game = Game(rules)
    play_choices(game, choices)
    if game.is_over:
        reject()
    with pytest.MonkeyPatch.context() as patch:
        compiled, pure = both(rules, patch)
        agree(compiled, pure, game, Budget(seconds=None, nodes=3_000))


def test_a_node_budget_stops_both_on_the_same_node(monkeypatch: pytest.MonkeyPatch) -> None:
    require_compiled()
    rules = Rules(5, 6, 4, gravity=True)
    compiled, pure = both(rules, monkeypatch)
    for solver in (compiled, pure):
        position = solver.start(Game(rules), Budget(seconds=None, nodes=5_000))
        with pytest.raises(OutOfBudget):
            solver.value(position)
        assert solver.nodes == 5_000
    # what a search cut short stored is proven: the next search goes on from it alike
    agree(compiled, pure, Game.replay(rules, []), Budget(seconds=None, nodes=7_000))


def test_boards_past_64_bits_run_the_pure_search() -> None:
    solver = Solver(Rules(4, 4, 4, layers=4))  # 4×4×4: 5 × 5 × 4 bits with the padding
    assert solver.layout.bits > 64 and solver.implementation == "pure"


def test_the_environment_switch_forces_the_pure_search(monkeypatch: pytest.MonkeyPatch) -> None:
    require_compiled()
    monkeypatch.setenv(PURE_ENV, "1")
    assert Solver(Rules(3, 3, 3)).implementation == "pure"
    monkeypatch.setenv(PURE_ENV, "0")
    assert Solver(Rules(3, 3, 3)).implementation == "compiled"


@pytest.mark.process
def test_without_the_module_the_solver_runs_pure() -> None:
    """The module unimportable (None in sys.modules: as if never built), in a fresh process."""
    probe = (
        "import sys; sys.modules['core.ai._search'] = None\n"
        "from core import Game, Rules\n"
        "from core.ai import Solver, solve\n"
        "from core.ai.speedups import compiled_available\n"
        "print(compiled_available(), Solver(Rules(3, 3, 3)).implementation,"
        " solve(Game(Rules(4, 4, 3))).result)\n"
    )
    env = {k: v for k, v in os.environ.items() if k != PURE_ENV}
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stdout.split() == ["False", "pure", "first"], done.stderr


def test_bad_input_gets_a_typed_error() -> None:
    require_compiled()
    from core.ai._search import ValueSearch

    solver = Solver(Rules(3, 3, 3))
    assert isinstance(solver.table, ValueSearch)
    with pytest.raises(ValueError, match="not a position"):
        solver.value((0b1, 0b0))  # a mark of the mover's that is not on the board
    with pytest.raises(ValueError, match="64 bits"):
        solver.table.search(1 << 70, 1 << 70, -1, 1)
    with pytest.raises(TypeError, match="int"):
        solver.table.get("key")  # type: ignore[arg-type]

    def build(bits: int = 12, perms: list[list[int]] | None = None, buckets: int = 5) -> Any:
        return ValueSearch(solver, bits, 0, 0, False, False, 3, [1], [0], perms or [], buckets, 5)

    with pytest.raises(ValueError, match="1 to 64 bits"):
        build(bits=65)
    with pytest.raises(ValueError, match="buckets"):
        build(buckets=0)
    with pytest.raises(ValueError, match="every one of 12 bits"):
        build(perms=[[0, 1]])


def test_a_solver_done_with_is_freed_with_its_compiled_tables(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The compiled search and its solver hold each other: the collector must be able to
    free the pair (before, every solver and its tables outlived its use, and a long book
    build ran out of memory)."""
    require_compiled()
    monkeypatch.delenv(PURE_ENV, raising=False)
    rules = Rules(4, 5, 4, gravity=True)

    def live() -> int:
        gc.collect()
        return sum(1 for thing in gc.get_objects() if isinstance(thing, Solver))

    before = live()
    for _ in range(20):
        solver = Solver(rules, table_buckets=1 << 10)
        assert solver.implementation == "compiled"
        solver.best(solver.start(Game(rules)))
    del solver
    assert live() == before
