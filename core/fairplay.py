"""Fair-play signals from the solver: how often a player's moves matched perfect play where
the choice mattered.

For each move of a finished two-player game, the position before it is analysed
(``core.ai.analysis.analyze``): the value (win, draw or loss) of every legal move, proven.
A position is **critical** when its moves do not all have the same value, so that a
mover could throw a result away there; a move **matched** when its value is the best the
position offers (any winning move counts as a win, however slow). A position the solver
does not prove within its budget is not counted (on a big board, the opening): the signal
comes from proven positions only, never a guess.

What it is not: a verdict. Perfect play on small boards is within a good human's reach (a
careful player matches every critical move of 3×3 Tic-Tac-Toe), an opponent who blunders
early leaves few critical positions, and a game's moves are not independent. The signal
becomes worth a look only over many critical positions on boards where perfect play is
hard (rooms/fairplay: a flag, never a sanction; docs/operations.md, "Fair play").
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from .ai.analysis import analyze
from .ai.budget import Budget
from .ai.values import Verdict
from .game import Game
from .move import Move
from .rules import Rules

__all__ = ["LARGEST_CELLS", "PER_POSITION", "SMALLEST_CELLS", "Judged", "judge"]

_ORDER = {Verdict.WIN: 0, Verdict.DRAW: 1, Verdict.LOSS: 2}


@dataclass(frozen=True, slots=True)
class Judged:
    """One player's moves in one game: how many were in critical positions, and how many
    of those matched perfect play."""

    critical: int = 0
    matched: int = 0

    def __add__(self, other: Judged) -> Judged:
        return Judged(self.critical + other.critical, self.matched + other.matched)


PER_POSITION = Budget(seconds=0.5)
LARGEST_CELLS = 42
"""Boards with more cells (Gomoku, 4×4×4) are not judged: the solver proves few of their
positions in time, and there it would search in pure Python, holding the interpreter lock
that the worker's event loop needs, for nothing."""
SMALLEST_CELLS = 10
"""Boards with fewer cells are not judged: perfect play on 3×3 is common knowledge, and a
player who draws every game there matches every critical move without any help."""


def judge(
    rules: Rules,
    moves: Sequence[Move],
    *,
    budget: Budget = PER_POSITION,
    total_s: float = 20.0,
    smallest_cells: int = SMALLEST_CELLS,
) -> dict[str, Judged] | None:
    """Each mark's ``Judged`` over ``moves`` played from the empty board under ``rules``,
    counting the positions the solver proves within ``budget`` each (and within ``total_s``
    seconds for the game); None when nothing can be judged (not two players, a board
    under ``smallest_cells`` or over ``LARGEST_CELLS`` cells, or no position proven)."""
    cells = rules.rows * rules.cols * rules.layers
    if rules.players != 2 or not smallest_cells <= cells <= LARGEST_CELLS:
        return None
    game = Game(rules)
    judged = {mark: Judged() for mark in rules.marks}
    proven = 0
    deadline = time.monotonic() + total_s
    # the latest positions first: they are the quickest to prove and where an engine's help
    # tells most, so a game whose opening is out of reach is still judged on its end
    positions: list[tuple[Game, Move]] = []
    for move in moves:
        if game.is_over:
            break
        positions.append((game.copy(), move))
        game.play(move)
    for before, move in reversed(positions):
        if time.monotonic() >= deadline:
            break
        analysis = analyze(before, budget)
        if not analysis.proven:
            continue
        proven += 1
        # a record's moves are the cells pieces landed on, as the analysis names them
        values = {entry.move: _ORDER[entry.value] for entry in analysis.moves}
        if len(set(values.values())) > 1:
            matched = values[move] == min(values.values())
            judged[before.turn] += Judged(1, 1 if matched else 0)
    return judged if proven else None
