"""``tictactoe play``: the terminal game, hot-seat, for any variant of the family.

The loop (``game_loop``) asks the seat of the side to move (a ``MoveSource``) for a
command, lets the engine judge it, and prints the board after every change. It reads
stdin a line at a time, so a game can be scripted; it exits 0 when the game ends (or a
player quits) and 1 when the input runs out first. ``--connect`` plays on a server: a room
(net_play) or each game of a tournament (tournament_play).
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from core import Game

from ..rules_flags import add_rules_flags, rules_from_args
from .bot_seat import add_bot_flags, bot_seat_from_args
from .game_loop import play_game
from .seats import MoveSource, TerminalSeat

__all__ = ["register", "run"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "play",
        help="play at the terminal, hot-seat, any variant",
        description="Play at the terminal, hot-seat: the players take turns typing moves "
        "(row col; a column with --gravity; row col layer in 3D), or undo, redo, help, quit. "
        "Reads stdin a line at a time, so a game can be scripted. Exits 0 when the game "
        "ends, 1 when the input ends first. With --connect, plays on a server: one room, or "
        "every game of a tournament (exits 0 once the tournament is over).",
    )
    add_rules_flags(parser)
    network = parser.add_argument_group("network (a running tictactoe serve)")
    network.add_argument(
        "--connect",
        metavar="URL",
        default=None,
        help="play on a server: a room link (http://HOST:PORT/r/ROOM) joins that room; a "
        "server address (http://HOST:PORT) creates a room with the rules flags; a tournament "
        "link (http://HOST:PORT/t/ID) enters that tournament (if still open) and plays each "
        "of your games in turn, printing the standings between games and at the end; with "
        "--bot LEVEL the bot plays your seat",
    )
    network.add_argument("--watch", action="store_true", help="with --connect: spectate")
    network.add_argument(
        "--days",
        type=int,
        choices=(1, 2, 3, 7),
        default=None,
        help="with --connect to a server address: the room made is a correspondence game of "
        "DAYS a move (a missed move loses on time; the server keeps the deadline)",
    )
    network.add_argument(
        "--name",
        default=None,
        help="with --connect: your display name (a tournament knows you by your identity's "
        "name, which this sets when the identity is made)",
    )
    network.add_argument(
        "--guest",
        "--no-identity",
        dest="guest",
        action="store_true",
        help="with --connect: play without your player identity (by default one is made on "
        "each server on first use and kept in $XDG_CONFIG_HOME/tictactoe/identity.json, "
        "else ~/.config/tictactoe/identity.json); not in a tournament, whose players are "
        "identities",
    )
    parser.add_argument(
        "--replay",
        metavar="FILE",
        default=None,
        help="step through a game record (GET /api/rooms/ROOM/record.txt): Enter for the "
        "next move, b to go back, q to quit; read from stdin",
    )
    add_bot_flags(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if getattr(args, "replay", None) is not None:
        from .replay import run_replay

        return run_replay(args.replay)
    if getattr(args, "connect", None) is not None:
        # the network client loads only when used
        from client import TournamentLink

        tournament = TournamentLink.parse(args.connect)
        if tournament is not None:
            from .tournament_play import play_tournament

            return play_tournament(args, tournament)
        from .net_play import play_connected

        return play_connected(args)
    if getattr(args, "watch", False):
        print("tictactoe: error: --watch needs --connect URL", file=sys.stderr)
        return 2
    game = Game(rules_from_args(args))
    seat = TerminalSeat(sys.stdin, sys.stdout)
    seats: dict[str, MoveSource] = dict.fromkeys(game.rules.marks, seat)  # hot-seat
    if args.bot is not None:  # the bot takes its seat instead of the keyboard
        seats[args.bot_plays] = bot_seat_from_args(args, game.rules)
    return play_game(game, seats, out=sys.stdout, err=sys.stderr)
