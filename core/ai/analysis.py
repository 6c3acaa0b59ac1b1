"""Move analysis: every legal move with its value for the mover, proven or estimated.

The solver proves each class of symmetric moves' win/draw/loss value, then measures the
distance to the end of the wins and losses. Both passes go round the classes with a node
allowance that grows four times a round, so the easy moves are proven before a hard one
takes the whole budget; where an opening book ships for the rules (``core.ai.book``), the
moves it answers start out proven. A move whose value is not proven in time is ``unknown`` with a
heuristic score (attack plus defence over the k-windows); a proven win or loss whose
distance was not measured in time has ``moves_to_end`` None. Games the solver cannot play
(three or four players) get heuristic scores only. The result is plain dataclasses with
``to_dict()`` for the spectator view and replays.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..game import Game
from ..move import Move
from .book import book_for
from .budget import DEFAULT_BUDGET, Budget, OutOfBudget
from .searchboard import SearchBoard
from .solve import distance_of_move, move_classes, score_of
from .solver import Position, Solver
from .threats import move_gains
from .values import Verdict

__all__ = ["Analysis", "MoveAnalysis", "analyze"]

FIRST_ALLOWANCE = 2_000  # nodes a class of moves may take in the first round
GROWTH = 4

_VERDICTS = {1: Verdict.WIN, 0: Verdict.DRAW, -1: Verdict.LOSS}
_TIER = {Verdict.WIN: 0, Verdict.DRAW: 1, Verdict.UNKNOWN: 2, Verdict.LOSS: 3}


@dataclass(frozen=True, slots=True)
class MoveAnalysis:
    """One legal move. ``value`` is for the player making it; UNKNOWN when not proven,
    and then ``score`` (a heuristic, larger is better) is what is known of it."""

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
            "proven": self.proven,
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


def rank(entry: MoveAnalysis) -> tuple[int, int, Move]:
    """Best first: wins (sooner first), draws, unproven moves by score, losses (later first)."""
    return (_TIER[entry.value], -entry.score, entry.move)


def analyze(
    game: Game, budget: Budget = DEFAULT_BUDGET, *, solver: Solver | None = None
) -> Analysis:
    """Analyse every legal move of ``game``'s position within ``budget``."""
    if game.is_over:
        return Analysis(game.board.text, game.turn, (), 0, 0.0)
    if game.rules.players != 2:
        return _static(game)
    solver = solver if solver is not None else Solver(game.rules)
    position = solver.start(game, budget)
    classes = move_classes(solver, position, solver.moves(position))
    heuristic = _heuristic_scores(game)
    values = _book_values(game, solver, classes)  # class representative -> proven value
    distances: dict[int, int] = {}
    try:
        _prove_values(solver, position, classes, values)
        _measure_distances(solver, position, classes, values, distances)
    except OutOfBudget:
        pass
    solver.limit_nodes(None)
    coords, layout, ply = game.rules.coords, solver.layout, game.ply
    analysed = []
    for members in classes:
        head = members[0]
        value = values.get(head)
        distance = distances.get(head)
        for bit in members:
            move = Move(*coords(layout.index(bit)))
            if value is None:
                analysed.append(MoveAnalysis(move, Verdict.UNKNOWN, None, heuristic[move]))
            else:
                end = None if distance is None else ply + distance
                analysed.append(
                    MoveAnalysis(move, _VERDICTS[value], distance, score_of(value, end))
                )
    analysed.sort(key=rank)
    return Analysis(game.board.text, game.turn, tuple(analysed), solver.nodes, solver.elapsed())


def _book_values(game: Game, solver: Solver, classes: list[list[int]]) -> dict[int, int]:
    """The values the shipped opening book proves (none without a book for the rules)."""
    book = book_for(game.rules)
    if book is None:
        return {}
    known = book.move_values(game.board.cells)
    layout = solver.layout
    return {
        members[0]: known[layout.index(members[0])]
        for members in classes
        if layout.index(members[0]) in known
    }


def _prove_values(
    solver: Solver, position: Position, classes: list[list[int]], values: dict[int, int]
) -> None:
    """Every class's value, round by round with a growing node allowance."""
    allowance = FIRST_ALLOWANCE
    while len(values) < len(classes):
        for members in classes:
            head = members[0]
            if head in values:
                continue
            solver.limit_nodes(allowance)
            try:
                values[head] = solver.move_value(position, head)
            except OutOfBudget:
                if solver.spent():
                    raise
        allowance *= GROWTH


def _measure_distances(
    solver: Solver,
    position: Position,
    classes: list[list[int]],
    values: dict[int, int],
    distances: dict[int, int],
) -> None:
    """Every win's and loss's plies to the end, round by round like the values."""
    allowance = FIRST_ALLOWANCE
    done: set[int] = set()
    pending = [m[0] for m in classes if values.get(m[0], 0) != 0]
    while pending:
        for head in pending:
            solver.limit_nodes(allowance)
            try:  # a probe cut short keeps its proofs in the table for the next round
                distance = distance_of_move(solver, position, head, values[head], 1)
            except OutOfBudget:
                if solver.spent():
                    raise
                continue
            done.add(head)
            if distance is not None:
                distances[head] = distance
        pending = [head for head in pending if head not in done]
        allowance *= GROWTH


def _heuristic_scores(game: Game) -> dict[Move, int]:
    board = SearchBoard.from_game(game)
    me = board.to_move
    coords = game.rules.coords
    scores = {}
    for index in board.legal_moves():
        attack, defence = move_gains(board, index, me)
        scores[Move(*coords(index))] = attack + defence
    return scores


def _static(game: Game) -> Analysis:
    scores = _heuristic_scores(game)
    analysed = [MoveAnalysis(move, Verdict.UNKNOWN, None, score) for move, score in scores.items()]
    analysed.sort(key=rank)
    return Analysis(game.board.text, game.turn, tuple(analysed), 0, 0.0)
