"""The solver's values: published results for small games, and exact agreement (value
and distance to the end) with plain minimax over the real engine."""

from __future__ import annotations

import pytest
from hypothesis import given, reject

from core import Game, Move, Rules
from core.ai import UNLIMITED, Budget, SearchProgress, Solver, Verdict, solve
from core.ai.errors import UnsupportedGame
from tests.core.ai.ai_reference import (
    as_verdict,
    memo_minimax,
    minimax,
    move_values,
    reachable_positions,
    sampled_positions,
)
from tests.core.ai.implementations import BOTH
from tests.core.engine_helpers import PROPERTY_SETTINGS, choice_lists, play_choices, small_rules

# the compiled search, or the pure one when the run asks for it (conftest.py)
pytestmark = pytest.mark.usefixtures("search_implementation")

# -- published values ------------------------------------------------------------------


def test_tic_tac_toe_is_a_draw() -> None:
    """3,3,3 is a draw (Wikipedia, "m,n,k-game"; D. Friedman, "Optimal mnk-games", 2020,
    dfriedman.org/ramblings/2020/12/31/optimal-mnk.html); every first move draws."""
    result = solve(Game(Rules(3, 3, 3)))
    assert (result.value, result.result, result.proven) == (Verdict.DRAW, "draw", True)
    assert len(result.best_moves) == 9


def test_three_by_four_k3_is_a_first_player_win_on_the_fourth_mark() -> None:
    """3,4,3: first player wins, needing 4 of its own moves (Friedman 2020, table row
    "3 4 3 Normal P1 4"): the game ends at ply 7."""
    result = solve(Game(Rules(3, 4, 3)))
    assert (result.value, result.result, result.moves_to_end) == (Verdict.WIN, "first", 7)


def test_four_by_four_k3_is_a_first_player_win_on_the_third_mark() -> None:
    """4,4,3: first player wins with 3 moves (Friedman 2020, "4 4 3 Normal P1 3"); only
    the four centre cells win that fast."""
    result = solve(Game(Rules(4, 4, 3)))
    assert (result.value, result.result, result.moves_to_end) == (Verdict.WIN, "first", 5)
    assert set(result.best_moves) == {Move(1, 1), Move(1, 2), Move(2, 1), Move(2, 2)}


def test_four_by_four_k4_is_a_draw() -> None:
    """4,4,4 is a draw (Wikipedia, "m,n,k-game": "4,4,4 ... draw"; Friedman 2020)."""
    result = solve(Game(Rules(4, 4, 4)), all_best=False)
    assert (result.value, result.result, result.proven) == (Verdict.DRAW, "draw", True)


def test_misere_tic_tac_toe_is_a_draw_only_through_the_centre() -> None:
    """Misère 3,3,3 is a draw (Friedman 2020, "3 3 3 Misère Draw"); the first player must
    open in the centre and mirror (the known drawing line), every other opening loses."""
    result = solve(Game(Rules(3, 3, 3, misere=True)))
    assert (result.value, result.result) == (Verdict.DRAW, "draw")
    assert result.best_moves == (Move(1, 1),)


def test_misere_three_by_four_k3_is_a_second_player_win() -> None:
    """Misère 3,4,3 is won by the second player (Friedman 2020, "3 4 3 Misère P2")."""
    result = solve(Game(Rules(3, 4, 3, misere=True)))
    assert (result.value, result.result) == (Verdict.LOSS, "second")


def test_qubic_three_cubed_is_a_first_player_win_through_the_centre() -> None:
    """3×3×3, k=3: the first player wins by taking the centre (Wikipedia, "3D tic-tac-toe":
    on 3×3×3 the first player wins easily). Uses the 48-element cube symmetry group."""
    result = solve(Game(Rules(3, 3, 3, layers=3)))
    assert (result.value, result.result) == (Verdict.WIN, "first")
    assert result.best_moves == (Move(1, 1, 1),)


# -- agreement with brute force over core.Game -----------------------------------------


@pytest.mark.parametrize(
    "rules",
    [
        Rules(3, 3, 3),
        Rules(3, 3, 3, misere=True),
        Rules(3, 3, 3, early_draw=True),
        Rules(3, 3, 2),  # k below the board size
    ],
    ids=lambda r: r.describe(),
)
@pytest.mark.parametrize("search_implementation", BOTH, indirect=True)
def test_every_reachable_position_matches_brute_force(rules: Rules) -> None:
    """Value and distance for every reachable position, with one solver (its table
    carried from search to search, as a bot keeps it); on both implementations, so the
    pure search faces brute force itself (conftest.py)."""
    memo: dict[tuple[int, ...], int] = {}
    solver = Solver(rules)
    checked = 0
    for text in reachable_positions(Game(rules)):
        game = Game.from_position(rules, text)
        if game.is_over:
            continue
        result = solve(game, solver=solver, all_best=False)
        expected = as_verdict(memo_minimax(game, memo), game.ply)
        assert (result.value, result.moves_to_end) == expected, text
        checked += 1
    assert checked > 100


@pytest.mark.parametrize(
    "rules",
    [
        Rules(3, 3, 3),
        Rules(3, 3, 3, misere=True),
        Rules(3, 4, 3),
        Rules(2, 2, 2, layers=2),
        Rules(4, 4, 3, gravity=True),
        Rules(3, 4, 3, gravity=True, misere=True),
    ],
    ids=lambda r: r.describe(),
)
def test_best_moves_are_exactly_the_moves_brute_force_prefers(rules: Rules) -> None:
    memo: dict[tuple[int, ...], int] = {}
    solver = Solver(rules)
    for text in sampled_positions(Game(rules), 150, seed=3):
        game = Game.from_position(rules, text)
        if game.is_over:
            continue
        values = move_values(game, memo)
        top = max(values.values())
        result = solve(game, solver=solver)
        assert set(result.best_moves) == {m for m, v in values.items() if v == top}, text
        assert (result.value, result.moves_to_end) == as_verdict(top, game.ply), text


def test_small_connect_three_matches_plain_minimax_without_memory() -> None:
    """Gravity, 4 rows × 3 columns, 3 in a row: a draw, by exhaustive minimax with no
    transposition table at all."""
    rules = Rules(4, 3, 3, gravity=True)
    expected = as_verdict(minimax(Game(rules)), 0)
    result = solve(Game(rules))
    assert (result.value, result.moves_to_end) == expected == (Verdict.DRAW, None)


def test_connect_three_on_three_rows_four_columns_matches_plain_minimax() -> None:
    """Gravity, 3 rows × 4 columns, 3 in a row: a first-player win at ply 9 (exhaustive
    minimax without memory agrees)."""
    rules = Rules(3, 4, 3, gravity=True)
    expected = as_verdict(minimax(Game(rules)), 0)
    result = solve(Game(rules))
    assert (result.value, result.moves_to_end) == expected == (Verdict.WIN, 9)
    assert result.result == "first"


@pytest.mark.parametrize(
    "rules",
    [
        Rules(4, 4, 4, gravity=True),
        Rules(4, 4, 3, gravity=True),
        Rules(4, 4, 3, gravity=True, misere=True),
        Rules(2, 2, 3, layers=3, gravity=True),  # 3D: pieces settle down the layers
    ],
    ids=lambda r: r.describe(),
)
def test_gravity_boards_match_brute_force(rules: Rules) -> None:
    memo: dict[tuple[int, ...], int] = {}
    game = Game(rules)
    expected = as_verdict(memo_minimax(game, memo), 0)
    result = solve(game)
    assert (result.value, result.moves_to_end) == expected


def test_positions_mid_game_and_after_the_end() -> None:
    rules = Rules(3, 3, 3)
    won = solve(Game.from_position(rules, "XX./OO./..."))
    assert (won.value, won.moves_to_end, won.best_moves) == (Verdict.WIN, 1, (Move(0, 2),))
    o_to_move = solve(Game.from_position(rules, "XX./O../..."))
    assert (o_to_move.value, o_to_move.result) == (Verdict.LOSS, "first")
    # O blocks at 0,2; X forks through the centre; O blocks one line; X completes the other
    assert o_to_move.moves_to_end == 4 and o_to_move.best_moves == (Move(0, 2),)
    over = solve(Game.from_position(rules, "XXX/OO./..."))
    assert (over.value, over.result, over.best_moves) == (Verdict.LOSS, "first", ())


# -- budgets ---------------------------------------------------------------------------


def test_a_spent_budget_returns_a_legal_move_and_says_unproven() -> None:
    game = Game(Rules(5, 5, 4))
    result = solve(game, Budget(seconds=None, nodes=2_000))
    assert not result.proven
    assert result.value is Verdict.UNKNOWN and result.result == "unknown"
    assert result.best_move in game.legal_moves()
    assert result.nodes <= 2_001


def test_a_value_proven_before_its_distance_says_so() -> None:
    """4×4 k=3: 26 nodes prove the win; the fastest one (5 plies) needs more."""
    result = solve(Game(Rules(4, 4, 3)), Budget(seconds=None, nodes=26), all_best=False)
    assert (result.value, result.result, result.proven) == (Verdict.WIN, "first", True)
    assert result.moves_to_end is None and result.best_move is not None
    assert result.to_dict()["moves_to_end"] is None


def test_an_interrupted_solver_is_still_right_afterwards() -> None:
    """Running out of budget unwinds the search mid-tree; the solver (and its table,
    with the guesses of the cut search in it) must still give exact answers."""
    rules = Rules(4, 4, 4)
    solver = Solver(rules)
    for nodes in (5, 500, 3_000):
        assert not solve(Game(rules), Budget(seconds=None, nodes=nodes), solver=solver).proven
    again = solve(Game(rules), UNLIMITED, solver=solver, all_best=False)
    assert (again.value, again.moves_to_end, again.proven) == (Verdict.DRAW, None, True)
    rules = Rules(3, 4, 3)
    solver = Solver(rules)
    game = Game.from_position(rules, "X.../.O../....")
    for nodes in (3, 30, 100):  # cut short in the value, then in the distance search
        solve(game, Budget(seconds=None, nodes=nodes), solver=solver)
    again = solve(game, UNLIMITED, solver=solver)
    assert (again.value, again.moves_to_end, again.proven) == (Verdict.WIN, 7, True)


def test_progress_is_reported_while_searching() -> None:
    reports: list[SearchProgress] = []
    ticks = iter(range(10**9))
    solver = Solver(
        Rules(4, 4, 4), on_progress=reports.append, progress_every=1, clock=lambda: next(ticks)
    )
    solve(Game(Rules(4, 4, 4)), Budget(seconds=None, nodes=20_000), solver=solver)
    assert reports and all(r.nodes > 0 and r.phase in ("value", "distance") for r in reports)
    assert [r.nodes for r in reports] == sorted(r.nodes for r in reports)


def test_the_solver_refuses_more_than_two_players() -> None:
    with pytest.raises(UnsupportedGame, match="two-player"):
        solve(Game(Rules(4, 4, 3, players=3)), UNLIMITED)


# -- any small rules, any position ------------------------------------------------------


@PROPERTY_SETTINGS
@given(small_rules().filter(lambda r: r.players == 2 and r.cells <= 10), choice_lists(10))
def test_value_distance_and_best_moves_match_brute_force_on_any_rules(
    rules: Rules, picks: list[int]
) -> None:
    """Every variant (gravity, misère, 3D, early draw, k from 1 up), from random positions."""
    game = Game(rules)
    play_choices(game, picks)
    if game.is_over:
        reject()
    memo: dict[tuple[int, ...], int] = {}
    result = solve(game)
    assert (result.value, result.moves_to_end) == as_verdict(memo_minimax(game, memo), game.ply)
    values = move_values(game, memo)
    top = max(values.values())
    assert set(result.best_moves) == {m for m, v in values.items() if v == top}
