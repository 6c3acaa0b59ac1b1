"""The perfect bot: a move the solver proves best, chosen for the opponent's chances to err.

It plays a move that keeps the proven value: the fastest win (when measured in time, else
any win), the slowest loss, or a draw.
Among drawing (or equally slow losing) moves it prefers the one after which the opponent
has the fewest *safe* replies (replies that keep their value), so a fallible opponent is
most likely to go wrong; among those, the one a short Monte Carlo search rates best (the
chances further on); among equally fast wins any will do. It never loses a game from a
position it proved: every move it plays from there keeps the proven value.

The proof may take half of a limited budget. When it runs out before the proof, a position
that follows the bot's last proven move keeps that value: a move proven to keep it (a
null-window search the last proof's table mostly answers) is played, so a game it proved is
never lost. Otherwise the bot says so: the move is the hard bot's (Monte Carlo tree search
with the rest of the budget), ``last_result.proven`` is False, and ``unproven_moves``
counts such moves (a league and the CLI report it, so "perfect" is never claimed where it
was not). The solver keeps its transposition table between moves of the same rules.

Where an opening book ships for the rules (``core.ai.book``), a position the book holds is
answered from it at once: its proven value and the book's move keeping it (the book holds
every reply to that move, down to where the live search proves in time).
"""

from __future__ import annotations

import random

from ..game import Game
from ..move import Move
from ..rules import Rules
from .book import BookEntry, book_for
from .bot import require_move
from .budget import Budget, OutOfBudget
from .mcts import MctsBot
from .searchboard import SearchBoard
from .solve import SolveResult, result_from_start, score_of, solve
from .solver import Position, Solver, check_two_players
from .values import Verdict

__all__ = ["TIE_BREAK_PLAYOUTS", "PerfectBot", "safe_replies"]

TIE_BREAK_PLAYOUTS = 400  # playouts to choose among moves with equally few safe replies
PROOF_SHARE = 0.5  # of a limited budget, for the proof; the rest picks the move

_VALUES = {Verdict.WIN: 1, Verdict.DRAW: 0, Verdict.LOSS: -1}
_VERDICTS = {value: verdict for verdict, value in _VALUES.items()}


def safe_replies(solver: Solver, position: Position, move: int, value: int) -> int:
    """How many replies to ``move`` keep the opponent's value ``-value`` (OutOfBudget when
    the budget runs out first)."""
    child = solver.child(position, move)
    return sum(solver.move_at_least(child, reply, -value) for reply in solver.moves(child))


class PerfectBot:
    level = "perfect"

    def __init__(self, rng: random.Random, budget: Budget) -> None:
        self._rng = rng
        self.budget = budget
        self._solver: Solver | None = None
        self._chances = MctsBot(rng, Budget(seconds=None, nodes=TIE_BREAK_PLAYOUTS))
        self.last_result: SolveResult | None = None
        self.proven_moves = 0
        self.unproven_moves = 0
        self._kept: tuple[int, int, int] | None = None  # (own marks, all marks, value) after a move

    def _solver_for(self, rules: Rules) -> Solver:
        if self._solver is None or self._solver.rules != rules:
            self._solver = Solver(rules)
        return self._solver

    def choose(self, game: Game) -> Move:
        require_move(game)
        check_two_players(game.rules)
        solver = self._solver_for(game.rules)
        position = solver.layout.bits_of_cells(game.board.cells)
        book = book_for(game.rules)
        entry = None if book is None else book.probe(game.board.cells)
        if entry is not None:
            return self._from_book(game, solver, position, entry)
        result = solve(game, _share(self.budget, PROOF_SHARE), solver=solver)
        self.last_result = result
        rest = _rest(self.budget, result)
        value: int | None
        if result.proven:
            self.proven_moves += 1
            value = _VALUES[result.value]
            move = self._among_best(game, solver, result, rest)
        else:
            value = self._floor(position)
            kept = None if value is None else self._keeping(game, solver, position, value, rest)
            if kept is not None:  # not solved, but a move provably keeps the value proven
                self.proven_moves += 1
                move = kept
            else:  # no proof in time: the hard bot's search, and say so
                self.unproven_moves += 1
                value = None
                board = SearchBoard.from_game(game)
                index = self._chances.choose_index(board, None, _rest(self.budget, result))
                move = Move(*game.rules.coords(index))
        self._remember(solver, position, move, value)
        return move

    def _from_book(self, game: Game, solver: Solver, position: Position, entry: BookEntry) -> Move:
        """The book's move: proven to keep the book's proven value."""
        move = Move(*game.rules.coords(entry.move))
        verdict = _VERDICTS[entry.value]
        self.last_result = SolveResult(
            verdict,
            result_from_start(verdict, game.turn),
            None,
            move,
            (move,),
            True,
            score_of(entry.value, None),
            0,
            0.0,
        )
        self.proven_moves += 1
        self._remember(solver, position, move, entry.value)
        return move

    def _among_best(self, game: Game, solver: Solver, result: SolveResult, rest: Budget) -> Move:
        """The proven-best move leaving the opponent the fewest safe replies."""
        if len(result.best_moves) < 2 or result.value is Verdict.WIN:
            return result.best_moves[0] if len(result.best_moves) < 2 else self._pick(result)
        value = 0 if result.value is Verdict.DRAW else -1
        layout, rules = solver.layout, game.rules
        position = solver.start(game, rest)
        safe: dict[int, int] = {}
        try:
            for move in result.best_moves:
                index = rules.index(move.row, move.col, move.layer)
                safe[index] = safe_replies(solver, position, layout.move(index), value)
        except OutOfBudget:
            return self._pick(result)
        fewest = min(safe.values())
        among = [index for index, count in safe.items() if count == fewest]
        if len(among) > 1:  # equally few: a short Monte Carlo search rates the chances
            left = rest.seconds
            if left is not None:
                left -= solver.elapsed()
            if left is None or left > 0:
                budget = Budget(seconds=left, nodes=TIE_BREAK_PLAYOUTS)
                board = SearchBoard.from_game(game)
                among = [self._chances.choose_index(board, among, budget)]
        return Move(*rules.coords(self._rng.choice(among)))

    def _floor(self, position: Position) -> int | None:
        """The value proven at this bot's last move, when ``position`` follows it by one
        opponent reply (the reply cannot lower it), else None."""
        if self._kept is None:
            return None
        mine, mask_after, value = self._kept
        me, mask = position
        follows = me == mine and mask & mask_after == mask_after
        return value if follows and (mask ^ mask_after).bit_count() == 1 else None

    def _keeping(
        self, game: Game, solver: Solver, position: Position, value: int, rest: Budget
    ) -> Move | None:
        """A move proven to keep ``value`` (cheap: the last proof's table holds most of
        it), or None when the budget runs out first."""
        solver.start(game, rest)
        moves = solver.moves(position)
        hint = solver.best_move_hint(position)
        if hint in moves:
            moves.remove(hint)
            moves.insert(0, hint)
        try:
            for bit in moves:
                if solver.move_at_least(position, bit, value):
                    return Move(*game.rules.coords(solver.layout.index(bit)))
        except OutOfBudget:
            return None
        return None

    def _remember(self, solver: Solver, position: Position, move: Move, value: int | None) -> None:
        """Keep a won or drawn value for the next move of the same game."""
        if value is None or value < 0:
            self._kept = None
            return
        rules = solver.rules
        bit = solver.layout.move(rules.index(move.row, move.col, move.layer))
        me, mask = position
        self._kept = (me | bit, mask | bit, value)

    def _pick(self, result: SolveResult) -> Move:
        return self._rng.choice(result.best_moves)


def _share(budget: Budget, share: float) -> Budget:
    """``share`` of a limited budget (an unlimited one stays unlimited)."""
    seconds = None if budget.seconds is None else budget.seconds * share
    nodes = None if budget.nodes is None else max(1, int(budget.nodes * share))
    return Budget(seconds=seconds, nodes=nodes)


def _rest(budget: Budget, spent: SolveResult) -> Budget:
    """What is left of ``budget`` after the proof (at least a token amount)."""
    seconds = None if budget.seconds is None else max(budget.seconds - spent.seconds, 1e-3)
    nodes = None if budget.nodes is None else max(budget.nodes - spent.nodes, 1)
    return Budget(seconds=seconds, nodes=nodes)
