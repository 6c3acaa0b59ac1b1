"""Bots playing a game to its end: the driver of tests, benchmarks and tournaments."""

from __future__ import annotations

from collections.abc import Sequence

from ..errors import GameError
from ..game import Game
from ..rules import Rules
from .bot import Bot

__all__ = ["play_game"]


def play_game(rules: Rules, bots: Sequence[Bot], *, game: Game | None = None) -> Game:
    """``bots[i]`` plays the i-th mark (X, O, ...) until the game ends; the finished game.

    Every move goes through ``Game.play``, so a bot that answers an illegal move raises.
    """
    if len(bots) != rules.players:
        raise GameError(f"{rules.players} players need {rules.players} bots, got {len(bots)}")
    game = game if game is not None else Game(rules)
    while not game.is_over:
        bot = bots[rules.marks.index(game.turn)]
        game.play(bot.choose(game))
    return game
