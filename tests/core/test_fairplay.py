"""Fair-play signals (core/fairplay.py) on scripted games with known match rates: every
critical position of these 3×3 games was checked by hand against the solver's values (3×3
is not judged in play, ``smallest_cells`` opens it here)."""

from __future__ import annotations

from core import Move, Rules
from core.ai.budget import Budget
from core.fairplay import SMALLEST_CELLS, Judged, judge

CLASSIC = Rules(rows=3, cols=3, k=3)


def cells(*pairs: tuple[int, int]) -> list[Move]:
    return [Move(row, col) for row, col in pairs]


def test_a_perfectly_played_draw_matches_every_critical_move() -> None:
    # X's centre is not critical (every first move draws); O's corner reply is (an edge
    # would lose), and so is each of O's blocks; X's last moves fill a drawn board
    game = cells((1, 1), (0, 0), (0, 2), (2, 0), (1, 0), (1, 2), (0, 1), (2, 1), (2, 2))
    assert judge(CLASSIC, game, smallest_cells=0) == {"X": Judged(1, 1), "O": Judged(4, 4)}


def test_a_blunder_is_a_critical_move_that_did_not_match() -> None:
    # X centre; O's edge reply (0, 1) loses: O's one critical position, missed. X then
    # converts: a corner, the fork, the win, each the best move of a critical position.
    game = cells((1, 1), (0, 1), (0, 0), (2, 2), (2, 0), (1, 0), (0, 2))
    assert judge(CLASSIC, game, smallest_cells=0) == {"X": Judged(3, 3), "O": Judged(1, 0)}


def test_a_game_of_one_miss_each_way() -> None:
    # X corner, O centre (the only move that holds), X the far corner, O's corner reply
    # (0, 2) lets X fork: O matched one critical move of two, X both of its own
    game = cells((0, 0), (1, 1), (2, 2), (0, 2), (2, 0), (1, 0), (2, 1))
    assert judge(CLASSIC, game, smallest_cells=0) == {"X": Judged(2, 2), "O": Judged(2, 1)}


def test_only_proven_positions_of_two_player_games_on_real_boards_are_judged() -> None:
    drawn = cells((1, 1), (0, 0), (0, 2), (2, 0), (1, 0), (1, 2), (0, 1), (2, 1), (2, 2))
    assert judge(CLASSIC, drawn, smallest_cells=SMALLEST_CELLS) is None  # 3×3 tells nothing
    assert judge(Rules(rows=3, cols=3, k=3, players=3), cells((0, 0)), smallest_cells=0) is None
    gomoku = Rules(rows=15, cols=15, k=5)
    assert judge(gomoku, cells((7, 7))) is None  # too big to be worth the search
    open_board = Rules(rows=6, cols=5, k=4)  # no opening book: the search alone
    assert judge(open_board, cells((2, 2)), budget=Budget(None, nodes=50)) is None  # none proven


def test_a_big_board_is_judged_on_the_positions_proven_in_its_budget() -> None:
    # Connect Four 5×4: X stacks column a, O stacks column b and never blocks; X's last
    # move wins. With a small node budget only the last two positions are proven: X's
    # winning move (matched) and O's failure to block (missed); a full budget counts more.
    four = Rules(rows=4, cols=5, k=4, gravity=True)
    game = cells((3, 0), (3, 1), (2, 0), (2, 1), (1, 0), (1, 1), (0, 0))
    small = judge(four, game, budget=Budget(None, nodes=3000))
    assert small == {"X": Judged(1, 1), "O": Judged(1, 0)}
    full = judge(four, game, budget=Budget(None, None))
    assert full is not None and full["O"].critical > 1 and full["O"].matched < full["O"].critical
