"""Auditing a finished game: which of a side's moves threw a result away, proven afterwards.

A move *throws a result away* when its player could have kept a better value than the move
keeps: from a won position into a drawn or lost one, or from a drawn one into a lost one.
Each move of the audited side is checked after the game by the solver (and the shipped
opening book, whose entries the solver proved when it was built), within a budget per move;
a move not decided within it is counted as unchecked, never as fine.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..game import Game
from ..rules import Rules
from .book import Book, book_for
from .budget import Budget, OutOfBudget
from .solver import Position, Solver

__all__ = ["Audit", "audit_game"]


@dataclass(frozen=True, slots=True)
class Audit:
    moves: int  # moves of the audited side
    thrown: int  # moves proven to lose value
    unchecked: int  # moves the budget did not decide

    def __add__(self, other: Audit) -> Audit:
        return Audit(
            self.moves + other.moves, self.thrown + other.thrown, self.unchecked + other.unchecked
        )

    def to_dict(self) -> dict[str, Any]:
        return {"moves": self.moves, "thrown_away": self.thrown, "unchecked": self.unchecked}


def audit_game(
    rules: Rules,
    moves: Sequence[int],
    mark: str,
    *,
    budget: Budget,
    solver: Solver | None = None,
) -> Audit:
    """Audit the moves ``mark`` played in the game of ``moves`` (cell indices, from the
    empty board), each within ``budget``."""
    solver = solver if solver is not None else Solver(rules)
    book = book_for(rules)
    game = Game(rules)
    audited = thrown = unchecked = 0
    for index in moves:
        if game.turn == mark:
            audited += 1
            position = solver.start(game, budget)
            try:
                thrown += _throws(game, solver, position, index, book)
            except OutOfBudget:
                unchecked += 1
        game.play_index(index)
    return Audit(audited, thrown, unchecked)


def _throws(game: Game, solver: Solver, position: Position, index: int, book: Book | None) -> bool:
    """Whether playing ``index`` is worth less to the mover than the position is."""
    cells = game.board.cells
    known = {} if book is None else book.move_values(cells)
    bit = solver.layout.move(index)
    kept = known.get(index)
    if kept is None:
        kept = solver.move_value(position, bit)
    if kept == 1:
        return False
    entry = None if book is None else book.probe(cells)
    if entry is not None:
        return entry.value > kept
    for other in solver.moves(position):
        if other == bit:
            continue
        better = known.get(solver.layout.index(other))
        if better is None:
            if solver.move_at_least(position, other, kept + 1):
                return True
        elif better > kept:
            return True
    return False
