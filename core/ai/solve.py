"""Solve a position: its value for the side to move, who wins from the start, best moves.

``solve(game, budget)`` proves the win/draw/loss value first (``Solver.best``), then
measures the distance to the end of best play (the fewest plies to a win, the most to a
loss) with yes/no probes one ply deeper at a time. Both share the budget: a value proven
but not measured in time is still proven (``moves_to_end`` None). With ``all_best`` it then
names every move that keeps the value and the distance (one proof per class of symmetric
moves), so a bot can vary its play perfectly.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ..game import Game
from ..move import Move
from ..rules import MARKS
from .budget import UNLIMITED, Budget, OutOfBudget
from .solver import Position, SearchProgress, Solver
from .values import MATE, MATE_BOUND, Verdict

__all__ = [
    "SolveResult",
    "distance_of_move",
    "move_classes",
    "result_from_start",
    "root_distance",
    "solve",
]

_VERDICTS = {1: Verdict.WIN, 0: Verdict.DRAW, -1: Verdict.LOSS}


@dataclass(frozen=True, slots=True)
class SolveResult:
    """What the solver knows about a position. ``value`` is for the side to move."""

    value: Verdict
    result: str  # "first", "second", "draw" or "unknown": who wins with best play
    moves_to_end: int | None  # plies to the end under best play (wins and losses, if measured)
    best_move: Move | None  # keeps the value (and the distance, when best_moves has it)
    best_moves: tuple[Move, ...]  # every move keeping value and distance, as far as proven
    proven: bool  # the value is proven (the distance may still be unmeasured)
    score: int  # MATE - end ply for a win (MATE_BOUND unmeasured), negated for a loss; else 0
    nodes: int
    seconds: float

    def to_dict(self) -> dict[str, Any]:
        return {
            "value": self.value.value,
            "result": self.result,
            "moves_to_end": self.moves_to_end,
            "best_moves": [move.to_dict() for move in self.best_moves],
            "proven": self.proven,
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
    return SolveResult(value, result_from_start(value, mover), 0, None, (), True, 0, 0, 0.0)


def score_of(value: int, end_ply: int | None) -> int:
    """The solver's score of a proven value ending at ``end_ply`` (unknown: the nearest
    score to zero that still says win or loss)."""
    if value == 0:
        return 0
    magnitude = MATE_BOUND if end_ply is None else MATE - end_ply
    return magnitude if value > 0 else -magnitude


def move_classes(solver: Solver, position: Position, moves: list[int]) -> list[list[int]]:
    """``moves`` grouped by symmetry (equal canonical keys after the move), order kept."""
    classes: dict[int, list[int]] = {}
    for move in moves:
        classes.setdefault(solver.canonical_key(solver.child(position, move)), []).append(move)
    return list(classes.values())


def distance_of_move(
    solver: Solver, position: Position, move: int, value: int, start: int
) -> int | None:
    """Plies to the end after playing ``move`` worth ``value`` (1 or -1) to its player,
    with best play; every distance below ``start`` is known not to hold. OutOfBudget when
    the budget runs out first."""
    if solver.ending(position, move) is not None:
        return 1
    child = solver.child(position, move)
    probe = solver.loses_within if value > 0 else solver.wins_within
    for plies in range(max(start - 1, 1), solver.empty_cells(child) + 1):
        if probe(child, plies):
            return plies + 1
    return None  # unreachable for a proven value: the game ends once the board is full


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
    position = solver.start(game, budget)
    coords, layout = game.rules.coords, solver.layout
    mover = game.turn

    def move_of(bit: int) -> Move:
        return Move(*coords(layout.index(bit)))

    try:
        value, found = solver.best(position)
    except OutOfBudget:
        guess = solver.best_move_hint(position) or solver.moves(position)[0]
        return SolveResult(
            Verdict.UNKNOWN,
            "unknown",
            None,
            move_of(guess),
            (move_of(guess),),
            False,
            0,
            solver.nodes,
            solver.elapsed(),
        )
    distance: int | None = None
    best: list[int] = []
    try:
        if value != 0:
            distance = root_distance(solver, position, value)
        if all_best:
            _all_best(solver, position, found, value=value, distance=distance, best=best)
    except OutOfBudget:
        pass  # the moves proven best so far stand (found keeps the value in any case)
    best = best or [found]
    verdict = _VERDICTS[value]
    return SolveResult(
        value=verdict,
        result=result_from_start(verdict, mover),
        moves_to_end=distance,
        best_move=move_of(found if found in best else best[0]),
        best_moves=tuple(sorted(move_of(m) for m in best)),
        proven=True,
        score=score_of(value, None if distance is None else game.ply + distance),
        nodes=solver.nodes,
        seconds=solver.elapsed(),
    )


def root_distance(solver: Solver, position: Position, value: int) -> int | None:
    """Plies to the end of best play from a position of proven ``value`` (1 or -1)."""
    probe = solver.wins_within if value > 0 else solver.loses_within
    for plies in range(1, solver.empty_cells(position) + 1):
        if probe(position, plies):
            return plies
    return None  # unreachable for a proven value: the game ends once the board is full


def _all_best(
    solver: Solver,
    position: Position,
    found: int,
    *,
    value: int,
    distance: int | None,
    best: list[int],
) -> None:
    """Add to ``best`` every move that keeps ``value`` (and ``distance``, when measured);
    OutOfBudget may cut it short."""
    classes = move_classes(solver, position, solver.moves(position))
    classes.sort(key=lambda members: found not in members)  # the proof's own move first
    for members in classes:
        move = members[0]
        if found not in members and not solver.move_at_least(position, move, value):
            continue
        if (
            distance is not None
            and value != 0
            and _move_distance(solver, position, move, value, distance) != distance
        ):
            continue
        best.extend(members)


def _move_distance(
    solver: Solver, position: Position, move: int, value: int, distance: int
) -> int | None:
    """``distance`` when ``move`` reaches the end in exactly that many plies, else None."""
    ending = solver.ending(position, move)
    if ending is not None:
        return 1 if distance == 1 else None
    if distance == 1:
        return None
    child = solver.child(position, move)
    if value > 0:  # a win this fast: the opponent loses within the rest
        return distance if solver.loses_within(child, distance - 1) else None
    # a loss this slow: the opponent needs every one of the remaining plies
    if distance - 2 >= 1 and solver.wins_within(child, distance - 2):
        return None
    return distance
