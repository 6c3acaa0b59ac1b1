"""Results thrown away: scripted games with known blunders are counted exactly, a move the
check cannot decide in its budget is counted apart, and the perfect bot playing from the
shipped Connect Four 6×5 book throws nothing away in sampled games."""

from __future__ import annotations

import pytest

from core import Game, Rules
from core.ai import Budget, Solver, make_bot, play_game, run_league
from core.ai.audit import Audit, audit_game

TIC_TAC_TOE = Rules(3, 3, 3)
CHECK = Budget(seconds=None, nodes=2_000_000)

# X centre, O an edge (the blunder: a draw becomes a loss), then X wins by force:
# X corner threatening, O blocks, X makes two threats, O blocks one, X completes the other
EDGE_BLUNDER = (4, 1, 0, 8, 6, 3, 2)


def test_a_drawn_position_left_for_a_lost_one_is_counted() -> None:
    assert audit_game(TIC_TAC_TOE, EDGE_BLUNDER, "O", budget=CHECK) == Audit(3, 1, 0)
    assert audit_game(TIC_TAC_TOE, EDGE_BLUNDER, "X", budget=CHECK) == Audit(4, 0, 0)


def test_a_won_position_left_for_a_draw_is_counted() -> None:
    # after the blunder X wins; X's edge 7 lets O hold the draw (O takes 0, then blocks)
    moves = (4, 1, 7)
    game = Game(TIC_TAC_TOE)
    game.play_indices(moves)
    assert audit_game(TIC_TAC_TOE, moves, "X", budget=CHECK) == Audit(2, 1, 0)


def test_a_move_the_budget_does_not_decide_is_unchecked() -> None:
    connect_four = Rules(6, 7, 4, gravity=True)
    # X opens a1, out of the book (it holds X's d4 and what follows): O's d1 is for the solver
    found = audit_game(connect_four, (35, 38), "O", budget=Budget(seconds=None, nodes=50))
    assert found == Audit(1, 0, 1)


def test_a_league_counts_per_audited_bot() -> None:
    league = run_league(
        TIC_TAC_TOE, ["random", "perfect"], 4, audit=["random", "perfect"], audit_budget=CHECK
    )
    counts = {count.level: count.audit for count in league.audits}
    assert counts["perfect"].thrown == 0 and counts["perfect"].moves > 0
    assert counts["random"].moves > 0 and counts["random"].unchecked == 0
    assert league.to_dict()["audits"][1]["bot"] == "perfect"
    # split by who moved first: each level moved first in 2 of its 4 games, 5 moves or fewer
    # in each as X, 4 or fewer as O; together they are the level's whole audit
    for count in league.audits:
        first, second = count.as_first, count.as_second
        assert first + second == count.audit and 0 < first.moves <= 10 and 0 < second.moves <= 8
        assert league.to_dict()["audits"][league.audits.index(count)]["as_first"] == {
            "moves": first.moves,
            "thrown_away": first.thrown,
            "unchecked": first.unchecked,
        }


def test_auditing_a_level_not_playing_is_an_error() -> None:
    with pytest.raises(ValueError, match="cannot audit 'hard': not in this league"):
        run_league(TIC_TAC_TOE, ["random", "perfect"], 1, audit=["hard"])


@pytest.mark.parametrize("perfect_plays", ["X", "O"])
def test_perfect_with_the_book_throws_nothing_away(perfect_plays: str) -> None:
    rules = Rules(5, 6, 4, gravity=True)
    perfect = make_bot("perfect", seed=3, budget=Budget(seconds=None, nodes=20_000))
    other = make_bot("medium", seed=3)
    bots = [perfect, other] if perfect_plays == "X" else [other, perfect]
    game = play_game(rules, bots)
    found = audit_game(
        rules, game.history_indices, perfect_plays, budget=CHECK, solver=Solver(rules)
    )
    assert found.thrown == 0 and found.unchecked == 0 and found.moves > 3
    assert game.outcome is not None and game.outcome.winner in (None, perfect_plays)
