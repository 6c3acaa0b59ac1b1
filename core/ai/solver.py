"""The perfect-play solver: negamax with alpha-beta, within a node/time budget.

It adds a symmetric transposition table, move ordering and iterative deepening. Scores follow
``core.ai.values`` (win sooner, lose later). Each iteration searches ``depth`` plies and scores
what lies beyond heuristically. A result is *proven* when it rests on no such horizon guess:
each node counts the guesses its value depends on (on a cutoff only the refuting child's), the
table stores that fact, and deepening stops at the first proven root; when the budget runs out
first, the deepest finished iteration's best move is returned as unproven. Sound shortcuts:
mate-distance bounds, and in normal play a side that can complete a line wins, facing two
winning cells loses, facing one must block; a board whose windows are all dead is a draw.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

from ..game import Game
from ..rules import Rules
from .budget import UNLIMITED, Budget, Clock, Deadline
from .errors import UnsupportedGame
from .searchboard import SearchBoard
from .symmetry import symmetries
from .threats import evaluate, move_gains
from .values import INFINITY, MATE

__all__ = ["SearchProgress", "Solver", "check_two_players"]

EXACT, LOWER, UPPER = 0, 1, 2
TableEntry = tuple[int, int, int, int, bool]  # depth, flag, score, canonical best move, complete


@dataclass(frozen=True, slots=True)
class SearchProgress:
    """A progress report: reached while a long search runs (e.g. once a second)."""

    depth: int
    nodes: int
    table_size: int
    seconds: float


def check_two_players(rules: Rules) -> None:
    if rules.players != 2:
        raise UnsupportedGame(
            f"the solver plays two-player games; these rules have {rules.players} players"
        )


class Solver:
    """One solver per rules; its transposition table outlives a search (a bot reuses it)."""

    def __init__(
        self,
        rules: Rules,
        *,
        table_limit: int = 500_000,
        on_progress: Callable[[SearchProgress], None] | None = None,
        progress_every: float = 1.0,
        clock: Clock = time.perf_counter,
    ) -> None:
        check_two_players(rules)
        self.rules = rules
        self._misere = rules.misere
        self._early_draw = rules.early_draw
        self._table: dict[int, TableEntry] = {}
        self._table_limit = table_limit
        self._history = [0] * rules.cells
        perms = symmetries(rules)
        self._to_canonical = perms
        self._from_canonical = tuple(_inverse(p) for p in perms)
        self._on_progress = on_progress
        self._progress_every = progress_every
        self._clock = clock
        self._last_report = 0.0
        self._incomplete = 0  # horizon leaves (and entries built on them) seen so far
        self._deadline = Deadline(UNLIMITED, clock=clock)
        self._board = SearchBoard(rules, with_keys=True)
        self.depth = 0  # the iteration running now, for progress reports

    # -- the public surface (used by solve.py and analysis.py) ----------------------------

    @property
    def table_size(self) -> int:
        return len(self._table)

    @property
    def nodes(self) -> int:
        return self._deadline.nodes

    def start(self, game: Game, budget: Budget) -> SearchBoard:
        """Begin a search of ``game``'s position: a fresh board and deadline."""
        if game.rules != self.rules:
            raise UnsupportedGame(
                f"this solver is for {self.rules.describe()}, not {game.rules.describe()}"
            )
        self._board = SearchBoard.from_game(game, with_keys=True)
        self._deadline = Deadline(budget, clock=self._clock, on_check=self._report)
        self._last_report = self._deadline.started
        return self._board

    def elapsed(self) -> float:
        return self._deadline.elapsed()

    def ordered_moves(self) -> list[int]:
        """The legal moves at the root, most promising first."""
        return self._order(self._board.legal_moves(), self._board.to_move)

    def child_score(self, move: int, depth: int, alpha: int, beta: int) -> tuple[int, bool]:
        """(score for the mover, proven) of playing ``move``, searching ``depth`` plies.

        Raises OutOfBudget when the budget is spent; every search frame takes its move
        back on the way out, so the board is at the root again.
        """
        before = self._incomplete
        score = self._after(move, depth, alpha, beta)
        return score, self._incomplete == before

    def static_score(self, move: int) -> int:
        """A heuristic score of ``move`` when nothing better is known (no search)."""
        board = self._board
        attack, defence = move_gains(board, move, board.to_move)
        return attack + defence

    def key_of_child(self, move: int) -> int:
        """The canonical key after ``move`` (moves with equal keys are equivalent)."""
        board = self._board
        board.place(move)
        key = board.canonical_key()
        board.undo()
        return key

    # -- the search ------------------------------------------------------------------------

    def _after(self, move: int, depth: int, alpha: int, beta: int) -> int:
        """Score of ``move`` for the side playing it (board restored on return)."""
        board = self._board
        board.place(move)
        try:
            if board.won:
                score = -(MATE - board.ply) if self._misere else MATE - board.ply
            elif board.empty == 0 or (self._early_draw and board.all_dead):
                score = 0
            else:
                score = -self._negamax(depth - 1, -beta, -alpha)
        finally:
            board.undo()
        return score

    def _negamax(self, depth: int, alpha: int, beta: int) -> int:
        self._deadline.tick()
        board = self._board
        ply = board.ply
        me = ply % 2 + 1
        if alpha >= MATE - (ply + 1):  # nobody wins sooner than with the next move
            return alpha
        # nor loses sooner than by the opponent's next move (by one's own, under misère)
        if beta <= -(MATE - (ply + 1 if self._misere else ply + 2)):
            return beta
        forced: list[int] | None = None
        if not self._misere:
            if (board.near[me] or board.k == 1) and board.winning_cells(me):
                return MATE - (ply + 1)
            threats = board.winning_cells(3 - me) if board.near[3 - me] else []
            if len(threats) >= 2:
                return -(MATE - (ply + 2))
            if threats:
                forced = threats
        if board.all_dead:
            return 0
        if depth <= 0:
            self._incomplete += 1
            return evaluate(board, me)

        keys = board.keys
        assert keys is not None
        key = min(keys)
        symmetry = keys.index(key)
        entry = self._table.get(key)
        hint = -1
        if entry is not None:
            e_depth, flag, score, canonical_move, complete = entry
            if complete or e_depth >= depth:
                cutoff = (
                    flag == EXACT
                    or (flag == LOWER and score >= beta)
                    or (flag == UPPER and score <= alpha)
                )
                if cutoff:
                    if not complete:
                        self._incomplete += 1
                    return score
            if canonical_move >= 0:
                hint = self._from_canonical[symmetry][canonical_move]

        moves = forced if forced is not None else self._order(board.legal_moves(), me)
        if hint >= 0 and hint in moves and moves[0] != hint:
            moves.remove(hint)
            moves.insert(0, hint)
        before = self._incomplete
        original_alpha = alpha
        best, best_move = -INFINITY, -1
        for move in moves:
            child_before = self._incomplete
            score = self._after(move, depth, alpha, beta)
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        self._history[move] += depth * depth
                        # a lower bound rests on the refuting child alone
                        self._incomplete = before + (self._incomplete != child_before)
                        break
        flag = UPPER if best <= original_alpha else LOWER if best >= beta else EXACT
        complete = self._incomplete == before
        if entry is not None and entry[4] and not complete:
            return best  # a proof outlives any guess: keep the proven entry
        if len(self._table) >= self._table_limit:
            self._table.clear()  # simple and safe: a cleared table only costs time
        self._table[key] = (
            depth,
            flag,
            best,
            self._to_canonical[symmetry][best_move],
            complete,
        )
        return best

    def _order(self, moves: list[int], me: int) -> list[int]:
        """Cells that raised cutoffs before first, then by attack + defence on the board."""
        board, history = self._board, self._history

        def promise(move: int) -> int:
            attack, defence = move_gains(board, move, me)
            return history[move] * 64 + attack + defence

        if self._misere:  # completing one's own line loses: try those cells last
            own = set(board.winning_cells(me))
            return sorted(moves, key=lambda m: (m in own, -promise(m)))
        return sorted(moves, key=promise, reverse=True)

    def _report(self, deadline: Deadline) -> None:
        if self._on_progress is None:
            return
        now = self._clock()
        if now - self._last_report >= self._progress_every:
            self._last_report = now
            self._on_progress(
                SearchProgress(self.depth, deadline.nodes, len(self._table), now - deadline.started)
            )


def _inverse(perm: tuple[int, ...]) -> tuple[int, ...]:
    inverse = [0] * len(perm)
    for source, image in enumerate(perm):
        inverse[image] = source
    return tuple(inverse)
