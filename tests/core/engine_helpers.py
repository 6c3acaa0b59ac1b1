"""Shared pieces of the engine tests: the variants, random games, and brute-force references.

The references here are written independently of ``core.geometry`` (their own direction
vectors and window enumeration), so agreeing with them means something.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from functools import cache
from itertools import product

from hypothesis import HealthCheck, reject, settings
from hypothesis import strategies as st

from core import Game, Rules, RulesError

# Modest example counts keep tests/core fast (CORE_EXAMPLES=5000 for a deep soak); no
# deadline, since the machine is shared.
PROPERTY_SETTINGS = settings(
    max_examples=int(os.environ.get("CORE_EXAMPLES", "60")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)

# One of every kind of game the engine plays; ids name them in test reports.
VARIANTS: dict[str, Rules] = {
    "3x3": Rules(),
    "4x4-k3": Rules(rows=4, cols=4, k=3),
    "5x7-k4": Rules(rows=5, cols=7, k=4),
    "connect4": Rules(rows=6, cols=7, k=4, gravity=True),
    "misere-3x3": Rules(misere=True),
    "3-players-4x5-k3": Rules(rows=4, cols=5, k=3, players=3),
    "4-players-5x5-k3": Rules(rows=5, cols=5, k=3, players=4),
    "3d-3x3x3": Rules(rows=3, cols=3, layers=3),
    "3d-4x4x4": Rules(rows=4, cols=4, layers=4, k=4),
    "3d-gravity-4x4x4": Rules(rows=4, cols=4, layers=4, k=4, gravity=True),
    "early-draw-4x4-k3": Rules(rows=4, cols=4, k=3, early_draw=True),
    "gomoku-15x15-k5": Rules(rows=15, cols=15, k=5),
}


def strategies_for(rules: Rules) -> list[str]:
    """The win strategies that apply to these rules (counter needs k to be the full line)."""
    from core.geometry import geometry
    from core.wins import CounterStrategy

    return ["counter", "connect"] if CounterStrategy.supports(geometry(rules)) else ["connect"]


# -- independent references ---------------------------------------------------------------


def naive_directions(is_3d: bool) -> list[tuple[int, int, int]]:
    """Every non-zero step (d_layer, d_row, d_col), both senses; windows are deduplicated."""
    steps = [(dl, dr, dc) for dl, dr, dc in product((-1, 0, 1), repeat=3)]
    return [d for d in steps if d != (0, 0, 0) and (is_3d or d[0] == 0)]


@cache
def naive_windows(rules: Rules) -> frozenset[frozenset[int]]:
    """Every set of k cells in a straight line, found by trying each start and direction."""
    found: set[frozenset[int]] = set()
    for layer, row, col in product(range(rules.layers), range(rules.rows), range(rules.cols)):
        for dl, dr, dc in naive_directions(rules.is_3d):
            cells = []
            for step in range(rules.k):
                at = (layer + step * dl, row + step * dr, col + step * dc)
                if not (
                    0 <= at[0] < rules.layers
                    and 0 <= at[1] < rules.rows
                    and 0 <= at[2] < rules.cols
                ):
                    break
                cells.append(rules.index(at[1], at[2], at[0]))
            else:
                found.add(frozenset(cells))
    return frozenset(found)


def completed_by(rules: Rules, cells: Sequence[int]) -> set[tuple[int, frozenset[int]]]:
    """Brute force: (code, window) for every window filled by one player."""
    return {
        (cells[next(iter(w))], w)
        for w in naive_windows(rules)
        if cells[next(iter(w))] and len({cells[c] for c in w}) == 1
    }


def every_window_dead(rules: Rules, cells: Sequence[int]) -> bool:
    """Brute force for early draw: each window holds marks of two different players."""
    return all(len({cells[c] for c in w} - {0}) >= 2 for w in naive_windows(rules))


def naive_legal(rules: Rules, cells: Sequence[int]) -> list[int]:
    """Legal cells without the engine: empty, and under gravity resting on something."""
    legal = []
    for index, code in enumerate(cells):
        if code:
            continue
        row, col, layer = rules.coords(index)
        if rules.gravity:
            if rules.is_3d and layer > 0 and not cells[rules.index(row, col, layer - 1)]:
                continue
            if not rules.is_3d and row + 1 < rules.rows and not cells[rules.index(row + 1, col)]:
                continue
        legal.append(index)
    return legal


# -- random play ----------------------------------------------------------------------------


def random_game(
    rules: Rules, seed: int, *, win_strategy: str | None = None, max_moves: int | None = None
) -> Game:
    """A game of random legal moves from a seeded generator, to the end or ``max_moves``."""
    rng = random.Random(seed)
    game = Game(rules, win_strategy=win_strategy)
    while not game.is_over and (max_moves is None or game.ply < max_moves):
        game.play_index(rng.choice(game.legal_indices()))
    return game


@st.composite
def small_rules(draw: st.DrawFn, *, early_draw: bool | None = None) -> Rules:
    """Any playable small rules: 2D up to 6×6 or 3D up to 4×4×4, every option drawn."""
    is_3d = draw(st.booleans())
    side = st.integers(1, 4 if is_3d else 6)
    rows, cols = draw(side), draw(side)
    layers = draw(st.integers(2, 4)) if is_3d else 1
    longest = max(rows, cols, layers)
    try:
        return Rules(
            rows=rows,
            cols=cols,
            layers=layers,
            k=draw(st.integers(1, longest)),
            gravity=draw(st.booleans()),
            misere=draw(st.booleans()),
            players=draw(st.integers(2, 4)),
            early_draw=draw(st.booleans()) if early_draw is None else early_draw,
        )
    except RulesError:
        reject()  # not playable (k longer than any line, or than anyone's share of cells)


def choice_lists(max_size: int) -> st.SearchStrategy[list[int]]:
    """Lists of picks for ``play_choices``, from a seed and a length up to ``max_size``.

    Seeded rather than drawn pick by pick, so long games (most of them to the end) are as
    likely as short ones.
    """

    def picks(seed: int, size: int) -> list[int]:
        rng = random.Random(seed)
        return [rng.randrange(10_000) for _ in range(size)]

    return st.builds(picks, st.integers(0, 2**32 - 1), st.integers(0, max_size))


def play_choices(game: Game, choices: Sequence[int]) -> list[int]:
    """Play ``choices[i] % len(legal)``-th legal cell while the game runs; the cells played."""
    played = []
    for choice in choices:
        if game.is_over:
            break
        legal = game.legal_indices()
        index = legal[choice % len(legal)]
        game.play_index(index)
        played.append(index)
    return played


class CountingCells(list[int]):
    """A board's cell list that counts reads through ``cells[i]``, as the strategies do."""

    reads = 0

    def __getitem__(self, index: int) -> int:  # type: ignore[override]
        self.reads += 1
        return super().__getitem__(index)
