"""Win strategies: counter and connect find exactly the completed lines, at a bounded cost."""

from __future__ import annotations

from math import gcd

import pytest

from core import Game, Rules, geometry, scan
from core.wins import WIN_STRATEGIES, ConnectStrategy, CounterStrategy, make_win_strategy
from tests.core.engine_helpers import VARIANTS, CountingCells, random_game, strategies_for


@pytest.mark.parametrize(
    ("rules", "default"),
    [
        (Rules(), "counter"),
        (Rules(rows=4, cols=4, layers=4), "counter"),
        (Rules(rows=3, cols=4, k=4), "counter"),  # k is the longest line, columns are shorter
        (Rules(rows=4, cols=4, k=3), "connect"),
        (Rules(rows=6, cols=7, k=4, gravity=True), "connect"),
        (Rules(rows=15, cols=15, k=5), "connect"),
    ],
)
def test_the_fastest_fitting_strategy_is_the_default(rules: Rules, default: str) -> None:
    assert Game(rules).win_strategy == default
    assert make_win_strategy(geometry(rules), rules.players).name == default


def test_a_strategy_can_be_forced() -> None:
    assert Game(Rules(), win_strategy="connect").win_strategy == "connect"
    assert Game(Rules(), win_strategy="counter").win_strategy == "counter"
    assert set(WIN_STRATEGIES) == {"counter", "connect"}


def test_counter_refuses_boards_with_lines_longer_than_k() -> None:
    with pytest.raises(ValueError, match="does not fit"):
        Game(Rules(rows=4, cols=4, k=3), win_strategy="counter")
    with pytest.raises(ValueError, match="needs k to be the longest line"):
        CounterStrategy(geometry(Rules(rows=5, cols=5, k=4)), 2)


def test_unknown_strategy_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown win strategy 'bitboard'"):
        Game(Rules(), win_strategy="bitboard")


@pytest.mark.parametrize("name", list(VARIANTS))
def test_every_window_is_found_by_every_strategy(name: str) -> None:
    """Fill each window cell by cell: no line until the last cell, then exactly that window."""
    rules = VARIANTS[name]
    geo = geometry(rules)
    for strategy_name in strategies_for(rules):
        for code in range(1, rules.players + 1):
            for window in geo.windows:
                strategy = make_win_strategy(geo, rules.players, strategy_name)
                cells = [0] * rules.cells
                for placed, index in enumerate(window, start=1):
                    cells[index] = code
                    line = strategy.place(cells, index, code)
                    assert (line is None) == (placed < rules.k), (strategy_name, window)
                assert line == window, (strategy_name, window)


def test_connect_reports_the_whole_run_through_the_move() -> None:
    """Filling the gap of XX.XX (k=3) makes a run of five, and all five cells are the line."""
    geo = geometry(Rules(rows=3, cols=5, k=3))
    cells = [1, 1, 1, 1, 1] + [0] * 10  # the strategy is told after the mark is down
    assert ConnectStrategy(geo, 2).place(cells, 2, 1) == (0, 1, 2, 3, 4)


def test_counter_undo_forgets_the_mark() -> None:
    geo = geometry(Rules())
    strategy = CounterStrategy(geo, 2)
    cells = [0] * 9
    for index in (0, 1):
        cells[index] = 1
        assert strategy.place(cells, index, 1) is None
    cells[1] = 0
    strategy.undo(cells, 1, 1)
    cells[1] = 2
    assert strategy.place(cells, 1, 2) is None
    cells[2] = 1
    assert strategy.place(cells, 2, 1) is None  # X has 0 and 2 only: no line
    cells[4], cells[8] = 1, 1
    strategy.place(cells, 4, 1)
    assert strategy.place(cells, 8, 1) == (0, 4, 8)


def test_scan_finds_every_completed_window() -> None:
    rules = Rules(rows=4, cols=4, k=3)
    geo = geometry(rules)
    assert scan(geo, [0] * 16) == []
    cells = [1, 1, 1, 1, 2, 2, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0]
    found = {(code, window) for code, window in scan(geo, cells)}
    assert found == {(1, (0, 1, 2)), (1, (1, 2, 3)), (2, (4, 8, 12))}


# -- cost: cell reads per move --------------------------------------------------------------


def _direction(rules: Rules, origin: int, other: int) -> tuple[tuple[int, int, int], int]:
    """The canonical direction from ``origin`` to ``other`` and the distance along it."""
    a, b = rules.coords(origin), rules.coords(other)
    delta = tuple(y - x for x, y in zip(a, b, strict=True))
    steps = gcd(*delta)
    unit = tuple(d // steps for d in delta)
    if next(d for d in unit if d) < 0:
        unit = tuple(-d for d in unit)
    return (unit[0], unit[1], unit[2]), steps


class RecordingCells(CountingCells):
    """Also remembers which cells were read, to sort the reads by direction."""

    def __init__(self, cells: list[int]) -> None:
        super().__init__(cells)
        self.read: list[int] = []

    def __getitem__(self, index: int) -> int:  # type: ignore[override]
        self.read.append(index)
        return super().__getitem__(index)


def _reads_per_move(rules: Rules, strategy_name: str, seeds: range) -> list[int]:
    """Replay random games into a strategy over a recording cell list; reads for each move.

    Also checks every read lies on a line through the move, at most k - 1 away, and that no
    direction is read more than 2(k - 1) times.
    """
    geo = geometry(rules)
    counts = []
    for seed in seeds:
        moves = random_game(rules, seed).history_indices
        strategy = make_win_strategy(geo, rules.players, strategy_name)
        cells = RecordingCells([0] * rules.cells)
        for ply, index in enumerate(moves):
            code = ply % rules.players + 1
            list.__setitem__(cells, index, code)
            cells.reads, cells.read = 0, []
            strategy.place(cells, index, code)
            counts.append(cells.reads)
            per_direction: dict[tuple[int, int, int], int] = {}
            for other in cells.read:
                direction, distance = _direction(rules, index, other)
                assert 1 <= distance <= rules.k - 1
                per_direction[direction] = per_direction.get(direction, 0) + 1
            assert all(n <= 2 * (rules.k - 1) for n in per_direction.values())
    return counts


@pytest.mark.parametrize("rules", [Rules(), Rules(rows=4, cols=4, layers=4)], ids=["3x3", "4x4x4"])
def test_counter_reads_no_cell_at_all(rules: Rules) -> None:
    assert set(_reads_per_move(rules, "counter", range(20))) == {0}


def test_connect_reads_do_not_grow_with_the_board() -> None:
    """k=5 on 7×7 and on 19×19: the same bound per move, whatever the board size."""
    bound = 4 * 2 * (5 - 1)  # 4 directions, k - 1 cells each way
    small = _reads_per_move(Rules(rows=7, cols=7, k=5), "connect", range(10))
    large = _reads_per_move(Rules(rows=19, cols=19, k=5), "connect", range(10))
    assert max(small) <= bound and max(large) <= bound
    tic_tac_toe = _reads_per_move(Rules(), "connect", range(20))
    assert max(tic_tac_toe) <= 4 * 2 * (3 - 1)
    assert min(large) >= 0 and len(large) > 100  # real games, not empty ones


def test_connect_reads_in_3d() -> None:
    reads = _reads_per_move(Rules(rows=4, cols=4, layers=4), "connect", range(10))
    assert max(reads) <= 13 * 2 * 3


@pytest.mark.parametrize(
    ("rules", "strategy_bound"),
    [(Rules(), 0), (Rules(rows=19, cols=19, k=5), 4 * 2 * (5 - 1))],
    ids=["3x3-counter", "19x19-k5-connect"],
)
def test_a_whole_move_reads_a_bounded_number_of_cells(rules: Rules, strategy_bound: int) -> None:
    """Through Game.play: the strategy's reads plus one to validate and one to place."""
    for seed in range(5):
        moves = random_game(rules, seed).history
        game = Game(rules)
        cells = CountingCells(game.board.cells)
        game.board.cells = cells
        for move in moves:
            cells.reads = 0
            game.play(move)
            assert cells.reads <= strategy_bound + 2
        assert game.outcome == random_game(rules, seed).outcome
