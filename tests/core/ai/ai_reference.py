"""Reference searches over the real engine (``core.Game``), for the tests to check the
solver against: plain full-width minimax, nothing shared with ``core.ai``.

A score is ``+(1000 - end_ply)`` when the side to move wins with the game ending after
``end_ply`` marks, the negation for a loss, 0 for a draw: so the larger score wins sooner
and loses later, which is what "best play" means for the solver too.
"""

from __future__ import annotations

from core import Game, Move
from core.ai import Verdict

BIG = 1000


def terminal_score(game: Game) -> int:
    """Score of a finished game for the side that would move next."""
    outcome = game.outcome
    assert outcome is not None
    if outcome.winner is None and outcome.loser is None:
        return 0
    mover_wins = outcome.winner == game.turn or (
        outcome.loser is not None and outcome.loser != game.turn
    )
    return (BIG - game.ply) if mover_wins else -(BIG - game.ply)


def minimax(game: Game) -> int:
    """Exhaustive minimax, no memory of any kind (keep it to small trees)."""
    if game.is_over:
        return terminal_score(game)
    best = -BIG
    for move in game.legal_moves():
        game.play(move)
        best = max(best, -minimax(game))
        game.undo()
    return best


def memo_minimax(game: Game, memo: dict[tuple[int, ...], int]) -> int:
    """Exhaustive minimax remembering each exact position (no symmetry, no bounds)."""
    key = tuple(game.board.cells)
    if key in memo:
        return memo[key]
    if game.is_over:
        value = terminal_score(game)
    else:
        value = -BIG
        for move in game.legal_moves():
            game.play(move)
            value = max(value, -memo_minimax(game, memo))
            game.undo()
    memo[key] = value
    return value


def as_verdict(score: int, ply: int) -> tuple[Verdict, int | None]:
    """(verdict, moves to the end) of a reference score at ``ply``, like the solver's."""
    if score > 0:
        return Verdict.WIN, BIG - score - ply
    if score < 0:
        return Verdict.LOSS, BIG + score - ply
    return Verdict.DRAW, None


def reachable_positions(game: Game) -> list[str]:
    """Every position reachable from ``game`` (itself included), as board texts."""
    seen: dict[str, None] = {}

    def walk() -> None:
        text = game.board.text
        if text in seen:
            return
        seen[text] = None
        for move in game.legal_moves():
            game.play(move)
            walk()
            game.undo()

    walk()
    return list(seen)


def move_values(game: Game, memo: dict[tuple[int, ...], int]) -> dict[Move, int]:
    """The reference score of every legal move, for the player making it."""
    values = {}
    for move in game.legal_moves():
        game.play(move)
        values[move] = -memo_minimax(game, memo)
        game.undo()
    return values


def sampled_positions(game: Game, count: int, seed: int) -> list[str]:
    """Up to ``count`` positions met along seeded random games from ``game`` (fewer when
    the game has fewer)."""
    import random

    rng = random.Random(seed)
    found: dict[str, None] = {}
    for _ in range(count * 20):
        if len(found) >= count:
            break
        start = game.ply
        while not game.is_over:
            found.setdefault(game.board.text, None)
            game.play(rng.choice(game.legal_moves()))
        while game.ply > start:
            game.undo()
    return list(found)[:count]
