"""Move analysis: every legal move with its value for the mover, proven or estimated.

The solver scores every class of symmetric moves once, deepening until each is proven or
the budget is spent; a move it could not prove keeps the heuristic score of its deepest
search. Games the solver cannot play (three or four players) get static threat scores.
The result is plain dataclasses with ``to_dict()`` for the spectator view and replays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..game import Game
from ..move import Move
from .budget import DEFAULT_BUDGET, Budget, OutOfBudget
from .searchboard import SearchBoard
from .solver import Solver
from .threats import move_gains
from .values import INFINITY, Verdict, verdict_of

__all__ = ["Analysis", "MoveAnalysis", "analyze"]


@dataclass(frozen=True, slots=True)
class MoveAnalysis:
    """One legal move. ``value`` is for the player making it; UNKNOWN when not proven,
    and then ``score`` (a heuristic, larger is better) is what the search estimated."""

    move: Move
    value: Verdict
    moves_to_end: int | None  # plies from now to the end under best play (wins, losses)
    score: int

    @property
    def proven(self) -> bool:
        return self.value is not Verdict.UNKNOWN

    def to_dict(self) -> dict[str, Any]:
        return {
            "move": self.move.to_dict(),
            "value": self.value.value,
            "moves_to_end": self.moves_to_end,
            "score": self.score,
        }


@dataclass(frozen=True, slots=True)
class Analysis:
    position: str
    turn: str
    moves: tuple[MoveAnalysis, ...]  # best first
    nodes: int
    seconds: float

    @property
    def proven(self) -> bool:
        return all(move.proven for move in self.moves)

    @property
    def best(self) -> MoveAnalysis | None:
        return self.moves[0] if self.moves else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "position": self.position,
            "turn": self.turn,
            "proven": self.proven,
            "moves": [move.to_dict() for move in self.moves],
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def analyze(
    game: Game, budget: Budget = DEFAULT_BUDGET, *, solver: Solver | None = None
) -> Analysis:
    """Analyse every legal move of ``game``'s position within ``budget``."""
    if game.is_over:
        return Analysis(game.board.text, game.turn, (), 0, 0.0)
    if game.rules.players != 2:
        return _static(game)
    solver = solver if solver is not None else Solver(game.rules)
    board = solver.start(game, budget)
    ply = board.ply
    classes: dict[int, list[int]] = {}
    for move in solver.ordered_moves():
        classes.setdefault(solver.key_of_child(move), []).append(move)
    # per class representative: (score, proven); the static score until searched
    known = {members[0]: (solver.static_score(members[0]), False) for members in classes.values()}
    try:
        for depth in range(1, board.empty + 1):
            solver.depth = depth
            pending = [m for m, (_, proven) in known.items() if not proven]
            if not pending:
                break
            pending.sort(key=lambda m: known[m][0], reverse=True)
            # heuristic scores are only comparable within one depth: a deeper iteration
            # replaces them all at once; proofs count at once
            deeper: dict[int, tuple[int, bool]] = {}
            try:
                for move in pending:
                    deeper[move] = solver.child_score(move, depth, -INFINITY, INFINITY)
            finally:
                finished = len(deeper) == len(pending)
                known.update((m, r) for m, r in deeper.items() if finished or r[1])
    except OutOfBudget:
        pass
    coords = game.rules.coords
    analysed = []
    for members in classes.values():
        score, proven = known[members[0]]
        value, distance = verdict_of(score, ply, proven)
        for move in members:
            analysed.append(MoveAnalysis(Move(*coords(move)), value, distance, score))
    analysed.sort(key=lambda a: (-a.score, a.move))
    return Analysis(game.board.text, game.turn, tuple(analysed), solver.nodes, solver.elapsed())


def _static(game: Game) -> Analysis:
    board = SearchBoard.from_game(game)
    me = board.to_move
    coords = game.rules.coords
    analysed = []
    for move in board.legal_moves():
        attack, defence = move_gains(board, move, me)
        analysed.append(MoveAnalysis(Move(*coords(move)), Verdict.UNKNOWN, None, attack + defence))
    analysed.sort(key=lambda a: (-a.score, a.move))
    return Analysis(game.board.text, game.turn, tuple(analysed), 0, 0.0)
