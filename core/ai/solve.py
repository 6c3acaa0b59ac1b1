"""Solve a position: its value for the side to move, who wins from the start, best moves.

``solve(game, budget)`` deepens the solver's search until the value is proven or the
budget is spent. With ``all_best`` it then names every move that keeps the value (one
null-window proof per class of symmetric moves), so a bot can vary its play perfectly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..game import Game
from ..move import Move
from ..rules import MARKS
from .budget import UNLIMITED, Budget, OutOfBudget
from .solver import SearchProgress, Solver
from .values import INFINITY, Verdict, verdict_of

__all__ = ["SolveResult", "result_from_start", "solve"]


@dataclass(frozen=True, slots=True)
class SolveResult:
    """What the solver knows about a position. ``value`` is for the side to move."""

    value: Verdict
    result: str  # "first", "second", "draw" or "unknown": who wins with best play
    moves_to_end: int | None  # plies to the end under best play (wins and losses only)
    best_move: Move | None
    best_moves: tuple[Move, ...]
    proven: bool
    score: int
    depth: int  # the deepest finished iteration
    nodes: int
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value.value,
            "result": self.result,
            "moves_to_end": self.moves_to_end,
            "best_moves": [move.to_dict() for move in self.best_moves],
            "proven": self.proven,
            "depth": self.depth,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
        }


def result_from_start(value: Verdict, mover: str) -> str:
    """Which side wins with best play, counted from the start: X is first, O second."""
    if value is Verdict.DRAW:
        return "draw"
    if value is Verdict.UNKNOWN:
        return "unknown"
    first_moves = mover == MARKS[0]
    return "first" if (value is Verdict.WIN) == first_moves else "second"


def _finished(game: Game) -> SolveResult:
    outcome = game.outcome
    assert outcome is not None
    mover = game.turn
    if outcome.winner is None and outcome.loser is None:
        value = Verdict.DRAW
    elif outcome.winner == mover or (outcome.loser is not None and outcome.loser != mover):
        value = Verdict.WIN
    else:
        value = Verdict.LOSS
    return SolveResult(value, result_from_start(value, mover), 0, None, (), True, 0, 0, 0, 0.0)


def solve(
    game: Game,
    budget: Budget = UNLIMITED,
    *,
    solver: Solver | None = None,
    all_best: bool = True,
    on_progress: Callable[[SearchProgress], None] | None = None,
) -> SolveResult:
    """Search ``game``'s position within ``budget`` (unlimited: until proven)."""
    if game.is_over:
        return _finished(game)
    solver = solver if solver is not None else Solver(game.rules, on_progress=on_progress)
    board = solver.start(game, budget)
    root_ply = board.ply
    moves = solver.ordered_moves()
    best: tuple[int, int] | None = None  # (score, move) of the deepest finished iteration
    proven = False
    depth_done = 0
    for depth in range(1, board.empty + 1):
        solver.depth = depth
        current: tuple[int, int] | None = None
        complete = True
        try:
            for move in moves:
                alpha = -INFINITY if current is None else current[0]
                score, exact = solver.child_score(move, depth, alpha, INFINITY)
                complete = complete and exact
                if current is None or score > current[0]:
                    current = (score, move)
        except OutOfBudget:
            # a partial iteration counts only once it has beaten the previous best move
            if current is not None and (best is None or current[1] != moves[0]):
                best = current
            break
        assert current is not None
        best, depth_done = current, depth
        moves.remove(current[1])
        moves.insert(0, current[1])
        if complete:
            proven = True
            break
    if best is None:  # not even one move searched: fall back on the static order
        best = (0, moves[0])
    score, move = best
    best_indices = [move]
    if proven and all_best:
        best_indices = _all_best(solver, moves, score, move, board.empty + 1)
    value, distance = verdict_of(score, root_ply, proven)
    mover = game.turn
    coords = game.rules.coords
    return SolveResult(
        value=value,
        result=result_from_start(value, mover),
        moves_to_end=distance,
        best_move=Move(*coords(move)),
        best_moves=tuple(sorted(Move(*coords(i)) for i in best_indices)),
        proven=proven,
        score=score,
        depth=depth_done,
        nodes=solver.nodes,
        seconds=solver.elapsed(),
    )


def _all_best(solver: Solver, moves: list[int], score: int, found: int, full: int) -> list[int]:
    """Every move whose proven score equals ``score`` (as far as the budget allows)."""
    classes: dict[int, list[int]] = {}
    for move in moves:
        classes.setdefault(solver.key_of_child(move), []).append(move)
    best: list[int] = []
    for members in classes.values():
        if found in members:
            best.extend(members)
            continue
        try:  # searched deeper (``full``) than the game can last: a complete proof
            value, _ = solver.child_score(members[0], full, score - 1, score)
        except OutOfBudget:
            break
        if value >= score:
            best.extend(members)
    return best
