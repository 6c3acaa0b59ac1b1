"""The perfect bot: the solver's proven-best moves, chosen for practical chances."""

from __future__ import annotations

import random

from ..game import Game
from ..move import Move
from ..rules import Rules
from .bot import require_move
from .budget import Budget
from .mcts import MctsBot
from .searchboard import SearchBoard
from .solve import SolveResult, solve
from .solver import Solver, check_two_players
from .values import Verdict

__all__ = ["TIE_BREAK_PLAYOUTS", "PerfectBot"]

TIE_BREAK_PLAYOUTS = 400  # playouts to choose among proven-best moves


class PerfectBot:
    """Plays a move the solver proves best; among equally good ones, the one a short
    Monte Carlo search rates best, so a fallible opponent gets the most chances to go
    wrong (a draw is certain, a win may come).

    The solver keeps its transposition table between moves of the same rules. When the
    budget runs out before the proof, the move is the best the search found, and
    ``last_result.proven`` is False.
    """

    level = "perfect"

    def __init__(self, rng: random.Random, budget: Budget) -> None:
        self._rng = rng
        self._budget = budget
        self._solver: Solver | None = None
        self._chances = MctsBot(rng, Budget(seconds=None, nodes=TIE_BREAK_PLAYOUTS))
        self.last_result: SolveResult | None = None

    def _solver_for(self, rules: Rules) -> Solver:
        if self._solver is None or self._solver.rules != rules:
            self._solver = Solver(rules)
        return self._solver

    def choose(self, game: Game) -> Move:
        require_move(game)
        check_two_players(game.rules)
        result = solve(game, self._budget, solver=self._solver_for(game.rules))
        self.last_result = result
        assert result.best_move is not None
        if not result.proven or len(result.best_moves) < 2:
            return result.best_move
        if result.value is Verdict.WIN:  # every best move wins as fast: any will do
            return self._rng.choice(result.best_moves)
        left = None if self._budget.seconds is None else self._budget.seconds - result.seconds
        if left is not None and left <= 0:
            return self._rng.choice(result.best_moves)
        rules = game.rules
        among = [rules.index(m.row, m.col, m.layer) for m in result.best_moves]
        budget = Budget(seconds=left, nodes=TIE_BREAK_PLAYOUTS)
        index = self._chances.choose_index(SearchBoard.from_game(game), among, budget)
        return Move(*rules.coords(index))
