"""The one interface every bot has, and the simplest bot: uniformly random.

A bot is told the game and answers a move for the side to move; it never changes the
game (searches run on their own board). Randomness comes from the ``random.Random`` each
bot is built with, so a seed replays a bot's choices exactly.
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ..errors import GameOver
from ..game import Game
from ..move import Move

__all__ = ["Bot", "RandomBot", "require_move"]


@runtime_checkable
class Bot(Protocol):
    level: str

    def choose(self, game: Game) -> Move:
        """A legal move for the side to move; GameOver when the game has ended."""


def require_move(game: Game) -> None:
    if game.is_over:
        raise GameOver("the game is over; there is no move to choose")


class RandomBot:
    """Any legal move, uniformly at random."""

    level = "random"

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def choose(self, game: Game) -> Move:
        require_move(game)
        return self._rng.choice(game.legal_moves())
