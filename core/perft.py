"""Perft: walk the whole game tree and count games, results and distinct positions.

The engine's exhaustive self-check, like chess engines' perft: for 3×3 the figures are
published (255,168 games; X wins 131,184, O wins 77,904, 46,080 draws; 5,478 positions).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .game import Game
from .rules import Rules

__all__ = ["PerftResult", "perft"]


@dataclass(slots=True)
class PerftResult:
    games: int = 0  # complete games (ended before the depth limit)
    wins: dict[str, int] = field(default_factory=dict)
    draws: int = 0
    positions: int = 0  # distinct positions reached, the empty board included
    leaves: int = 0  # positions at the depth limit with the game still going
    losses: dict[str, int] = field(default_factory=dict)  # only misère with 3+ players

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "games": self.games,
            "wins": self.wins,
            "draws": self.draws,
            "positions": self.positions,
        }
        if self.leaves:
            data["unfinished"] = self.leaves
        if self.losses:
            data["losses"] = self.losses
        return data


def perft(rules: Rules, depth: int | None = None) -> PerftResult:
    """Count everything reachable from the empty board within ``depth`` moves (None: all)."""
    game = Game(rules)
    result = PerftResult(wins=dict.fromkeys(rules.marks, 0))
    seen: set[bytes] = set()
    cells = game.board.cells
    limit = rules.cells if depth is None else depth

    def walk(remaining: int) -> None:
        seen.add(bytes(cells))
        outcome = game.outcome
        if outcome is not None:
            result.games += 1
            if outcome.winner is not None:
                result.wins[outcome.winner] += 1
            elif outcome.loser is not None:  # misère with 3+ players: a loser, no winner
                result.losses[outcome.loser] = result.losses.get(outcome.loser, 0) + 1
            else:
                result.draws += 1
            return
        if remaining == 0:
            result.leaves += 1
            return
        for index in game.legal_indices():
            game.play_index(index)
            walk(remaining - 1)
            game.undo()

    walk(limit)
    result.positions = len(seen)
    return result
