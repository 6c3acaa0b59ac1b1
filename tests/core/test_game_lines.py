"""Every line of every variant, won in a real game: each direction, at edges and corners.

For each k-window of a board, a game is played through ``Game.play`` in which one player
takes exactly that window's cells (gravity: building the support first) while everyone
else plays elsewhere without completing anything. The game must end on that window, with
the result the scoring rule says, under every win strategy that applies.
"""

from __future__ import annotations

import random

import pytest

from core import MARKS, EndReason, Game, Move, Rules, geometry, scan
from tests.core.engine_helpers import VARIANTS, strategies_for


def _completes_a_line(game: Game, index: int) -> bool:
    game.play_index(index)
    ended = game.outcome is not None and game.outcome.reason == EndReason.LINE
    game.undo()
    return ended


def _win_window(
    rules: Rules, window: tuple[int, ...], completer: int, strategy: str, seed: int
) -> Game | None:
    """One attempt: ``completer`` fills ``window``; None when the attempt went astray."""
    rng = random.Random(seed)
    game = Game(rules, win_strategy=strategy)
    target = set(window)
    while not game.is_over:
        legal = game.legal_indices()
        rng.shuffle(legal)
        code = game.ply % rules.players + 1
        if code == completer and (mine := [i for i in legal if i in target]):
            choice = mine[0]
        else:
            elsewhere = [i for i in legal if i not in target]
            harmless = [i for i in elsewhere if not _completes_a_line(game, i)]
            if not harmless:
                return None
            choice = harmless[0]
        game.play(Move(*rules.coords(choice)))
    if [w for _, w in scan(geometry(rules), game.board.cells)] != [window]:
        return None  # the last move completed a second line too: try another game
    return game


def _check_line_win(rules: Rules, name: str, window: tuple[int, ...], completer: int) -> None:
    for strategy in strategies_for(rules):
        for seed in range(40):
            game = _win_window(rules, window, completer, strategy, seed)
            if game is not None:
                break
        else:
            pytest.fail(f"{name}: no game completed window {window} with {strategy}")
        outcome = game.outcome
        assert outcome is not None
        assert outcome.reason == EndReason.LINE
        assert [rules.index(m.row, m.col, m.layer) for m in outcome.line] == list(window)
        mark = MARKS[completer - 1]
        if not rules.misere:
            assert (outcome.winner, outcome.loser) == (mark, None)
        elif rules.players == 2:
            assert (outcome.winner, outcome.loser) == (MARKS[2 - completer], mark)
        else:
            assert (outcome.winner, outcome.loser) == (None, mark)
        assert game.history[-1] in outcome.line  # the last move completed it


SMALL_VARIANTS = [name for name in VARIANTS if VARIANTS[name].cells <= 64]


@pytest.mark.parametrize("name", SMALL_VARIANTS)
def test_every_window_can_be_won_in_play(name: str) -> None:
    rules = VARIANTS[name]
    for number, window in enumerate(geometry(rules).windows):
        _check_line_win(rules, name, window, completer=number % rules.players + 1)


def test_large_board_lines_at_edges_and_corners() -> None:
    """15×15, k=5: every window touching the border, in all four directions."""
    rules = VARIANTS["gomoku-15x15-k5"]
    edge = {0, rules.rows - 1}
    border_windows = [
        w
        for w in geometry(rules).windows
        if any(rules.coords(c)[0] in edge or rules.coords(c)[1] in {0, rules.cols - 1} for c in w)
    ]
    directions = set()
    for number, window in enumerate(border_windows):
        if number % 4 == 0:  # a quarter of them keeps the test quick; all directions occur
            a, b = rules.coords(window[0]), rules.coords(window[1])
            directions.add((b[0] - a[0], b[1] - a[1]))
            _check_line_win(rules, "15x15", window, completer=1 + number % 2)
    assert directions == {(0, 1), (1, 0), (1, 1), (1, -1)}


@pytest.mark.parametrize(
    ("rules", "moves", "line"),
    [
        # the four directions through corner and edge cells on 3×3
        (Rules(), [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)], [(0, 0), (0, 1), (0, 2)]),
        (Rules(), [(0, 2), (0, 0), (1, 2), (0, 1), (2, 2)], [(0, 2), (1, 2), (2, 2)]),
        (Rules(), [(0, 0), (0, 1), (1, 1), (0, 2), (2, 2)], [(0, 0), (1, 1), (2, 2)]),
        (Rules(), [(2, 0), (0, 0), (1, 1), (0, 1), (0, 2)], [(0, 2), (1, 1), (2, 0)]),
        # k smaller than the board: the line is k cells inside a longer row
        (
            Rules(rows=5, cols=5, k=3),
            [(4, 2), (0, 0), (4, 3), (0, 4), (4, 4)],
            [(4, 2), (4, 3), (4, 4)],
        ),
    ],
)
def test_hand_written_wins(
    rules: Rules, moves: list[tuple[int, int]], line: list[tuple[int, int]]
) -> None:
    game = Game.replay(rules, [Move(r, c) for r, c in moves])
    assert game.outcome is not None
    assert game.outcome.winner == "X"
    assert game.outcome.line == tuple(Move(r, c) for r, c in line)
