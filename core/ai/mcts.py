"""The hard bot: Monte Carlo tree search (UCT) with tactics, for boards too big to solve.

Plain UCT with random playouts is noise on 15×15. This one is sharpened three ways:

- tactics at every tree node: a side with a winning cell only considers winning, and a
  side facing one only considers blocking it (a search of one move instead of hundreds);
  at the root also forks (``core.ai.tactics``): make one, or only defend against one;
- candidates: on large boards only cells near the marks, the best ``WIDTH`` by the threat
  scorer, tried best-first, so the scorer's favourite is always among the choices;
- playouts that win when they can and block when they must, cut off after ``HORIZON``
  plies on large boards and scored by the threat evaluation.

Rewards are per player (1 a win, 0 a loss, ½ a draw or a cut-off at equal threats), so
the same search runs with three or four players and under misère.
"""

from __future__ import annotations

import math
import random
import time

from ..game import Game
from ..move import Move
from .bot import require_move
from .budget import Budget, Clock, Deadline, OutOfBudget
from .searchboard import SearchBoard
from .tactics import defuses, fork_cells
from .threats import LARGE_BOARD, candidate_moves, evaluate, move_gains

__all__ = ["MctsBot", "MctsStats"]

WIDTH = 10  # candidates per node on large boards
HORIZON = 10  # playout plies on large boards before the threat evaluation decides
EXPLORATION = 0.7


class _Node:
    __slots__ = ("children", "move", "mover", "parent", "result", "reward", "untried", "visits")

    def __init__(self, move: int, parent: _Node | None, mover: int) -> None:
        self.move = move
        self.parent = parent
        self.mover = mover  # the player who played ``move``
        self.children: list[_Node] = []
        self.untried: list[int] | None = None  # best candidate last (popped first)
        self.visits = 0
        self.reward = 0.0  # summed from ``mover``'s point of view
        self.result: list[float] | None = None  # rewards when the move ended the game


class MctsStats:
    __slots__ = ("iterations", "seconds")

    def __init__(self) -> None:
        self.iterations = 0
        self.seconds = 0.0


class MctsBot:
    level = "hard"

    def __init__(self, rng: random.Random, budget: Budget, *, clock: Clock = time.perf_counter):
        self._rng = rng
        self._budget = budget
        self._clock = clock
        self.last_stats = MctsStats()
        self._stones: list[int] = []  # the marks on the board when the search started

    def choose(self, game: Game) -> Move:
        require_move(game)
        board = SearchBoard.from_game(game)
        return Move(*game.rules.coords(self.choose_index(board)))

    def choose_index(
        self, board: SearchBoard, among: list[int] | None = None, budget: Budget | None = None
    ) -> int:
        """The best cell by search; ``among`` limits the root's choices (the perfect bot
        passes its proven-best moves), ``budget`` overrides the bot's own."""
        me = board.to_move
        self._stones = [i for i, code in enumerate(board.cells) if code]
        root_moves = list(among) if among else self._root_moves(board, me)
        if len(root_moves) == 1:
            return root_moves[0]
        root = _Node(-1, None, (me - 2) % board.players + 1)
        root.untried = root_moves
        deadline = Deadline(budget or self._budget, clock=self._clock, check_every=8)
        self.last_stats = stats = MctsStats()
        large = len(board.cells) >= LARGE_BOARD
        try:
            while True:
                deadline.tick()
                self._iterate(board, root, large)
                stats.iterations += 1
        except OutOfBudget:
            pass
        stats.seconds = deadline.elapsed()
        if not root.children:
            return root_moves[-1]
        return max(root.children, key=lambda child: (child.visits, child.reward)).move

    # -- one iteration ----------------------------------------------------------------------

    def _iterate(self, board: SearchBoard, root: _Node, large: bool) -> None:
        node, placed = root, 0
        while node.result is None and not node.untried and node.children:
            node = _select(node)
            board.place(node.move)
            placed += 1
        if node.result is None and node.untried is None:
            node.untried = self._candidates(board, board.to_move)
        if node.result is None and node.untried:
            move = node.untried.pop()
            mover = board.to_move
            board.place(move)
            placed += 1
            child = _Node(move, node, mover)
            child.result = _result(board, mover)
            node.children.append(child)
            node = child
        rewards = node.result if node.result is not None else self._playout(board, large)
        back: _Node | None = node
        while back is not None:
            back.visits += 1
            back.reward += rewards[back.mover]
            back = back.parent
        for _ in range(placed):
            board.undo()

    def _root_moves(self, board: SearchBoard, me: int) -> list[int]:
        """The root's candidates, after the fork tactics the tree is too shallow to see:
        make a fork if there is one; if the opponent threatens one, only defences."""
        moves = self._candidates(board, me)
        if len(moves) == 1 or board.rules.misere or board.players != 2:
            return moves
        opponent = 3 - me
        near = candidate_moves(board)
        mine = fork_cells(board, me, near)
        if mine:
            return mine[-1:]
        if fork_cells(board, opponent, near):
            options = list(dict.fromkeys(moves + fork_cells(board, opponent, near)))
            safe = [m for m in options if defuses(board, m, me, opponent, near)]
            # no sure defence: let the search pick among the blocks and the usual moves
            return sorted(safe or options, key=lambda m: sum(move_gains(board, m, me)))
        return moves

    def _candidates(self, board: SearchBoard, me: int) -> list[int]:
        """Moves worth a child node, the most promising last."""
        if not board.rules.misere:
            wins = board.winning_cells(me)
            if wins:
                return wins[:1]
            for step in range(1, board.players):
                threats = board.winning_cells((me - 1 + step) % board.players + 1)
                if threats:
                    return threats
        moves = candidate_moves(board)
        if board.rules.misere:
            losing = set(board.winning_cells(me))
            moves = [m for m in moves if m not in losing] or moves
        if board.rules.misere:  # building own lines is a liability: fewest threats first
            scored = sorted(moves, key=lambda m: -move_gains(board, m, me)[0])
        else:
            scored = sorted(moves, key=lambda m: sum(move_gains(board, m, me)))
        return scored[-WIDTH:] if len(board.cells) >= LARGE_BOARD else scored

    def _playout(self, board: SearchBoard, large: bool) -> list[float]:
        placed = 0
        rewards: list[float] | None = None
        try:
            while rewards is None:
                if large and placed >= HORIZON:
                    return _cutoff(board)
                mover = board.to_move
                board.place(self._playout_move(board, mover, large))
                placed += 1
                rewards = _result(board, mover)
            return rewards
        finally:
            for _ in range(placed):
                board.undo()

    def _playout_move(self, board: SearchBoard, me: int, large: bool) -> int:
        rng = self._rng
        if not board.rules.misere:
            wins = board.winning_cells(me)
            if wins:
                return wins[0]
            for step in range(1, board.players):
                threats = board.winning_cells((me - 1 + step) % board.players + 1)
                if threats:
                    return rng.choice(threats)
        if large and not board.gravity:  # a random cell near a random mark
            cells, rules = board.cells, board.rules
            marks = board.history if board.history and rng.random() < 0.5 else self._stones
            for _ in range(8):
                base = rng.choice(marks) if marks else rng.randrange(len(cells))
                row, col, layer = rules.coords(base)
                row += rng.randint(-2, 2)
                col += rng.randint(-2, 2)
                if 0 <= row < rules.rows and 0 <= col < rules.cols:
                    cell = rules.index(row, col, layer)
                    if not cells[cell]:
                        return cell
        moves = board.legal_moves()
        if board.rules.misere and len(moves) > 1:
            losing = set(board.winning_cells(me))
            moves = [m for m in moves if m not in losing] or moves
        return rng.choice(moves)


def _select(node: _Node) -> _Node:
    log_n = math.log(node.visits)
    best, best_value = node.children[0], -1.0
    for child in node.children:
        value = child.reward / child.visits + EXPLORATION * math.sqrt(log_n / child.visits)
        if value > best_value:
            best, best_value = child, value
    return best


def _result(board: SearchBoard, mover: int) -> list[float] | None:
    """Rewards per player if ``mover``'s last move ended the game, else None."""
    players = board.players
    if board.won:
        if board.rules.misere:
            share = 1.0 if players == 2 else 0.5
            return [0.0 if p == mover else share for p in range(players + 1)]
        return [1.0 if p == mover else 0.0 for p in range(players + 1)]
    if board.empty == 0 or (board.rules.early_draw and board.all_dead):
        return [0.5] * (players + 1)
    return None


def _cutoff(board: SearchBoard) -> list[float]:
    """Rewards at the playout horizon: the threat evaluation squashed into (0, 1)."""
    scale = float(board.weights[max(board.k - 1, 1)])
    return [0.5] + [
        0.5 + 0.5 * math.tanh(evaluate(board, p) / scale) for p in range(1, board.players + 1)
    ]
