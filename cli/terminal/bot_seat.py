"""A bot at the table: the move source of a seat in ``tictactoe play --bot LEVEL`` (also over
the network, with ``--connect``: then the server judges its moves like anyone's)."""

from __future__ import annotations

import argparse

from core import Game, GameError, MoveRequest, Rules
from core.ai.bot import Bot
from core.ai.factory import LEVELS, make_bot
from core.ai.solver import check_two_players

from ..ai_flags import add_budget_flag, budget_from_args, fail
from .move_input import Command, PlayMove

__all__ = ["BotSeat", "add_bot_flags", "bot_from_args", "bot_seat_from_args"]


class BotSeat:
    """Answers every turn of its seat with the bot's move (it never runs dry)."""

    def __init__(self, bot: Bot) -> None:
        self._bot = bot

    def next_command(self, game: Game) -> Command | None:
        move = self._bot.choose(game)
        layer = move.layer if game.rules.is_3d else None
        return PlayMove(MoveRequest(col=move.col, row=move.row, layer=layer))


def add_bot_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("bot (play against the computer)")
    group.add_argument(
        "--bot",
        choices=LEVELS,
        default=None,
        help="a bot takes one seat: "
        + ", ".join(LEVELS)
        + "; with --connect it plays your seat (in a tournament, each of your games)",
    )
    group.add_argument(
        "--bot-plays",
        default="O",
        metavar="MARK",
        help="the bot's mark (default O: you start; with --connect the server gives the seat)",
    )
    group.add_argument("--seed", type=int, default=None, help="seed for the bot's choices")
    add_budget_flag(parser, 1.0, "per bot move")


def bot_seat_from_args(args: argparse.Namespace, rules: Rules) -> BotSeat:
    """The bot seat the flags ask for; a mark or level that cannot play exits with why."""
    if args.bot_plays not in rules.marks:
        fail(f"--bot-plays: {args.bot_plays!r} is not a player here ({', '.join(rules.marks)})")
    return bot_from_args(args, rules)


def bot_from_args(args: argparse.Namespace, rules: Rules) -> BotSeat:
    """The bot of ``--bot`` for a game under ``rules``, whatever its mark (over the network
    the server gives the seat); a level that cannot play these rules exits with why."""
    if args.bot == "perfect":
        try:
            check_two_players(rules)
        except GameError as exc:
            fail(f"--bot perfect: {exc}")
    return BotSeat(make_bot(args.bot, seed=args.seed, budget=budget_from_args(args)))
