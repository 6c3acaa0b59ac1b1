"""Move analysis: every legal move's value for the mover, proven against brute force, or
an honest heuristic score when the budget runs out."""

from __future__ import annotations

import json

import pytest

from core import Game, Move, Rules
from core.ai import Budget, Verdict
from core.ai.analysis import analyze
from tests.core.ai.ai_reference import as_verdict, memo_minimax, move_values, sampled_positions

# the compiled search, or the pure one when the run asks for it (conftest.py)
pytestmark = pytest.mark.usefixtures("search_implementation")


@pytest.mark.parametrize(
    "rules",
    [Rules(3, 3, 3), Rules(3, 3, 3, misere=True), Rules(4, 4, 3, gravity=True)],
    ids=lambda r: r.describe(),
)
def test_every_move_value_matches_brute_force(rules: Rules) -> None:
    memo: dict[tuple[int, ...], int] = {}
    for text in sampled_positions(Game(rules), 60, seed=11):
        game = Game.from_position(rules, text)
        if game.is_over:
            continue
        analysis = analyze(game, Budget(seconds=None, nodes=None))
        expected = {move: as_verdict(v, game.ply) for move, v in move_values(game, memo).items()}
        got = {a.move: (a.value, a.moves_to_end) for a in analysis.moves}
        assert got == expected, text
        assert analysis.proven and analysis.best is not None
        assert analysis.best.value == as_verdict(memo_minimax(game, memo), game.ply)[0]


def test_moves_come_best_first_and_serialise() -> None:
    game = Game.from_position(Rules(3, 3, 3), "XX./OO./...")
    analysis = analyze(game)
    assert analysis.moves[0].move == Move(0, 2)
    assert (analysis.moves[0].value, analysis.moves[0].moves_to_end) == (Verdict.WIN, 1)
    assert analysis.moves[-1].value is Verdict.LOSS  # leaving O's row open loses at once
    data = json.loads(json.dumps(analysis.to_dict()))
    assert data["turn"] == "X" and data["position"] == "XX./OO./..." and data["proven"]
    assert data["moves"][0] == {
        "move": {"row": 0, "col": 2, "layer": 0},
        "value": "win",
        "moves_to_end": 1,
        "score": analysis.moves[0].score,
        "proven": True,
    }


def test_a_spent_budget_gives_unknown_values_with_scores() -> None:
    game = Game(Rules(9, 9, 5))
    analysis = analyze(game, Budget(seconds=None, nodes=500))
    assert len(analysis.moves) == 81 and not analysis.proven
    assert all(a.value is Verdict.UNKNOWN and a.moves_to_end is None for a in analysis.moves)
    assert analysis.moves[0].move == Move(4, 4)  # the centre scores best
    scores = [a.score for a in analysis.moves]
    assert scores == sorted(scores, reverse=True)


def test_symmetric_moves_share_their_value() -> None:
    analysis = analyze(Game(Rules(3, 3, 3)), Budget(seconds=None, nodes=None))
    corners = {a.score for a in analysis.moves if a.move.row != 1 and a.move.col != 1}
    assert len(corners) == 1 and all(a.value is Verdict.DRAW for a in analysis.moves)


def test_finished_games_and_more_than_two_players() -> None:
    assert analyze(Game.from_position(Rules(3, 3, 3), "XXX/OO./...")).moves == ()
    three = analyze(Game(Rules(4, 4, 3, players=3)))
    assert len(three.moves) == 16 and all(a.value is Verdict.UNKNOWN for a in three.moves)


def test_values_are_proven_before_distances_and_say_which() -> None:
    """4×4 k=3 with 300 nodes: every move proven a win, only some distances measured;
    the measured (fastest) wins come first."""
    analysis = analyze(Game(Rules(4, 4, 3)), Budget(seconds=None, nodes=300))
    assert analysis.proven and {a.value for a in analysis.moves} == {Verdict.WIN}
    measured = [a.moves_to_end for a in analysis.moves if a.moves_to_end is not None]
    assert measured and len(measured) < len(analysis.moves)
    assert analysis.moves[0].moves_to_end == 5
    assert all(a.to_dict()["proven"] for a in analysis.moves)
