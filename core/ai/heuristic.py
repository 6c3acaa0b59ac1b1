"""The easy and medium bots: tactics first, then a threat scorer, no search.

Medium plays, in order: a winning cell; a block of the opponent's winning cell; a fork (two
winning cells, which cannot both be blocked); a defence against the opponent's fork; otherwise
the best cell by attack plus defence over k-windows (``core.ai.threats``): the centre then the
corners on an empty 3×3, open runs on 15×15. Under gravity it avoids handing the opponent a win
next move when it can. Easy wins when it can, blocks only sometimes, ignores forks, favours its
own threats and picks among its three best cells: it loses to medium and beats random.

Under misère (completing a line loses) both avoid completing their own line and prefer cells
that build the fewest own threats. Medium also leaves the opponent only losing moves when it
can, and mirrors the opponent's move through the board's centre (after taking the centre cell,
if any): a mirror move cannot complete a line unless the opponent completed its image first, so
the mirroring side never loses.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..game import Game
from ..move import Move
from .bot import require_move
from .searchboard import SearchBoard
from .tactics import (
    defuses,
    fork_cells,
    hands_a_win,
    leaves_only_losing_moves,
    mirror_reply,
    opponents,
)
from .threats import candidate_moves, move_gains

__all__ = ["EASY", "MEDIUM", "HeuristicBot", "Style"]


@dataclass(frozen=True, slots=True)
class Style:
    level: str
    block_chance: float  # how often an immediate threat is seen and blocked
    forks: bool  # makes forks and defends against them
    defence: float  # weight of the opponents' threats against one's own
    safety: bool  # refuses moves that give the opponent a winning cell
    choices: int  # picks at random among this many best-scored cells


EASY = Style("easy", block_chance=0.6, forks=False, defence=0.3, safety=False, choices=3)
MEDIUM = Style("medium", block_chance=1.0, forks=True, defence=1.0, safety=True, choices=1)


class HeuristicBot:
    def __init__(self, style: Style, rng: random.Random) -> None:
        self.level = style.level
        self._style = style
        self._rng = rng

    def choose(self, game: Game) -> Move:
        require_move(game)
        board = SearchBoard.from_game(game)
        index = self.choose_index(board)
        return Move(*game.rules.coords(index))

    def choose_index(self, board: SearchBoard) -> int:
        me = board.to_move
        legal = board.legal_moves()
        candidates = candidate_moves(board)
        if board.rules.misere:
            return self._misere(board, me, legal, self._style.forks)
        wins = board.winning_cells(me)
        if wins:
            return self._rng.choice(wins)
        for opponent in opponents(board, me):
            threats = board.winning_cells(opponent)
            if threats and self._rng.random() < self._style.block_chance:
                return self._best(board, me, threats)
        if self._style.forks:
            fork_moves = fork_cells(board, me, candidates)
            if fork_moves:
                return self._best(board, me, fork_moves)
            defence = self._fork_defence(board, me, candidates)
            if defence is not None:
                return defence
        if self._style.safety:
            safe = [m for m in candidates if not hands_a_win(board, m, me)]
            candidates = safe or candidates
        return self._best(board, me, candidates, self._style.choices)

    def _fork_defence(self, board: SearchBoard, me: int, candidates: list[int]) -> int | None:
        """Against an opponent who could fork next move: a move after which they cannot."""
        opponent = opponents(board, me)[0]
        their_forks = fork_cells(board, opponent, candidates)
        if not their_forks:
            return None
        ranked = self._ranked(board, me, candidates)[:12]
        options = list(dict.fromkeys(ranked + their_forks))
        good = [m for m in options if defuses(board, m, me, opponent, candidates)]
        return self._best(board, me, good or their_forks)

    def _misere(self, board: SearchBoard, me: int, legal: list[int], deep: bool) -> int:
        losing = set(board.winning_cells(me))
        safe = [m for m in legal if m not in losing] or legal
        if deep:
            mirror = mirror_reply(board, me)
            if mirror is not None:
                return mirror
            for move in safe:
                if leaves_only_losing_moves(board, move, me):
                    return move
        scored = sorted(safe, key=lambda m: move_gains(board, m, me)[0])
        choices = scored[: self._style.choices]
        return self._rng.choice(choices)

    def _ranked(self, board: SearchBoard, me: int, moves: list[int]) -> list[int]:
        defence = self._style.defence

        def score(move: int) -> float:
            attack, block = move_gains(board, move, me)
            return attack + defence * block

        shuffled = list(moves)
        self._rng.shuffle(shuffled)  # equal scores: a random one, not always the first
        return sorted(shuffled, key=score, reverse=True)

    def _best(self, board: SearchBoard, me: int, moves: list[int], choices: int = 1) -> int:
        return self._rng.choice(self._ranked(board, me, moves)[:choices])
