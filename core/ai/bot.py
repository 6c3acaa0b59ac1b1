"""The one interface every bot has, and the two simplest bots: random and perfect.

A bot is told the game and answers a move for the side to move; it never changes the
game (searches run on their own board). Randomness comes from the ``random.Random`` each
bot is built with, so a seed replays a bot's choices exactly.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ..errors import GameOver
from ..game import Game
from ..move import Move
from ..rules import Rules
from .budget import Budget, OutOfBudget
from .solve import SolveResult, solve
from .solver import Solver, check_two_players

__all__ = ["Bot", "PerfectBot", "RandomBot", "require_move"]


@runtime_checkable
class Bot(Protocol):
    level: str

    def choose(self, game: Game) -> Move:
        """A legal move for the side to move; GameOver when the game has ended."""


def require_move(game: Game) -> None:
    if game.is_over:
        raise GameOver("the game is over; there is no move to choose")


class RandomBot:
    """Any legal move, uniformly at random."""

    level = "random"

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def choose(self, game: Game) -> Move:
        require_move(game)
        return self._rng.choice(game.legal_moves())


class PerfectBot:
    """Plays a move the solver proves best; among equally good ones, the one that leaves
    a fallible opponent the most losing replies (ties broken at random).

    The solver keeps its transposition table between moves of the same rules. When the
    budget runs out before the proof, the move is the best the search found, and
    ``last_result.proven`` is False.
    """

    level = "perfect"

    def __init__(self, rng: random.Random, budget: Budget) -> None:
        self._rng = rng
        self._budget = budget
        self._solver: Solver | None = None
        self.last_result: SolveResult | None = None

    def _solver_for(self, rules: Rules) -> Solver:
        if self._solver is None or self._solver.rules != rules:
            self._solver = Solver(rules)
        return self._solver

    def choose(self, game: Game) -> Move:
        require_move(game)
        check_two_players(game.rules)
        solver = self._solver_for(game.rules)
        result = solve(game, self._budget, solver=solver)
        self.last_result = result
        assert result.best_move is not None
        if not result.proven or len(result.best_moves) < 2:
            return result.best_move
        return self._rng.choice(_most_traps(solver, game, result))


def _most_traps(solver: Solver, game: Game, result: SolveResult) -> list[Move]:
    """The best moves with the most losing replies (all of them if the budget runs out)."""
    rules = game.rules
    full = rules.cells - game.ply + 1
    counted: dict[Move, int] = {}
    seen: dict[int, int] = {}  # canonical key -> mistakes, so symmetric moves count once
    try:
        for move in result.best_moves:
            index = rules.index(move.row, move.col, move.layer)
            key = solver.key_of_child(index)
            if key not in seen:
                seen[key] = solver.count_mistakes(index, result.score, full)
            counted[move] = seen[key]
    except OutOfBudget:
        return list(result.best_moves)
    most = max(counted.values())
    return [move for move, count in counted.items() if count == most]
