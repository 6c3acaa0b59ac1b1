"""``tictactoe play --connect URL [--watch] [--bot LEVEL]``: the terminal game on a server.

Plugs two move sources into the terminal game's seats: ``NetworkSeat`` (this terminal's
seat: typed here, or chosen by ``--bot``, and judged by the server) and ``RemoteSeat`` (a
seat played elsewhere: its moves arrive from the server). The local game only mirrors the
server's move list, so the server stays the only authority and the board on screen is always
one it accepted; a game the server ends off the board (a resignation, a flag, an abort) ends
with the server's result. A player joins with the guest identity kept for that server
(identity_file; made on first use) unless ``--guest`` says not to, so the seat is linked to
it. A tournament link is tournament_play's.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from client import Disconnected, Refused, RoomClient, RoomLink, create_room
from core import Game, GameError, MalformedMove, MoveRequest, Outcome, Rules

from ..rules_flags import rules_from_args
from .board_view import outcome_line
from .bot_seat import bot_from_args
from .game_loop import play_game
from .identity_file import IdentityError, IdentityFile, default_path, identity_for, unknown_identity
from .move_input import Command, PlayMove, Redo, Undo
from .names import shown_name
from .seats import MoveSource, TerminalSeat

__all__ = ["NetworkSeat", "RemoteSeat", "play_connected", "play_room"]


class _EndedOffTheBoard(Exception):
    """The server ended the game with no move: the loop stops, the server's result is shown."""


def _request(rules: Rules, move: dict[str, int]) -> MoveRequest:
    """The exact cell the server reports, as a request the local mirror plays."""
    layer = move["layer"] if rules.is_3d else None
    return MoveRequest(col=move["col"], row=move["row"], layer=layer)


class RemoteSeat:
    """A seat played elsewhere (or every seat, when watching): waits for the server."""

    def __init__(self, client: RoomClient, out: TextIO) -> None:
        self._client = client
        self._out = out
        self._asked: int | None = None

    def next_command(self, game: Game) -> Command | None:
        index = len(game.history)
        if self._asked == index:
            raise RuntimeError(f"the server's move {index} does not fit this terminal's board")
        self._asked = index
        client = self._client
        if len(client.moves) <= index and client.status != "finished":
            print(f"Waiting for {game.turn} to move...", file=self._out, flush=True)
            client.wait(lambda: len(client.moves) > index or client.status == "finished")
        if len(client.moves) <= index:
            raise _EndedOffTheBoard
        return PlayMove(_request(game.rules, client.moves[index]))


class NetworkSeat:
    """This terminal's seat: the player (or the bot) picks a move, the server decides if it
    lands."""

    def __init__(self, source: MoveSource, client: RoomClient) -> None:
        self._source = source
        self._client = client

    def next_command(self, game: Game) -> Command | None:
        self._client.drain()  # the game may have ended meanwhile (the opponent resigned)
        if self._client.status == "finished":
            raise _EndedOffTheBoard
        command = self._source.next_command(game)
        if isinstance(command, Undo | Redo):
            word = "undo" if isinstance(command, Undo) else "redo"
            raise MalformedMove(f"{word} is not available in a game over the network")
        if not isinstance(command, PlayMove):
            return command
        index = len(game.history)
        try:
            self._client.play(command.request)  # Refused (a GameError) when refused
        except Refused:
            if self._client.status == "finished":  # refused because the game ended
                raise _EndedOffTheBoard from None
            raise
        self._client.wait(lambda: len(self._client.moves) > index)
        return PlayMove(_request(game.rules, self._client.moves[index]))


def play_room(client: RoomClient, local: MoveSource | None, *, out: TextIO, err: TextIO) -> int:
    """Play the joined room's game to its end on this terminal, ``local`` choosing the moves
    of the client's seat (None: watch); the game loop's exit code."""
    game = Game(client.rules)
    for move in list(client.moves):
        game.play(_request(client.rules, move))
    remote = RemoteSeat(client, out)
    seats: dict[str, MoveSource] = {
        mark: NetworkSeat(local, client) if local is not None and mark == client.mark else remote
        for mark in game.rules.marks
    }
    try:
        return play_game(game, seats, out=out, err=err)
    except _EndedOffTheBoard:
        try:
            said = outcome_line(client.rules, Outcome.from_dict(client.outcome or {}))
        except GameError:
            said = "Result: the game is over."
        print(said, file=out, flush=True)
        return 0


def play_connected(
    args: argparse.Namespace,
    *,
    out: TextIO | None = None,
    err: TextIO | None = None,
    input: TextIO | None = None,
) -> int:
    # the streams of now, not of the import (a test may have replaced them since)
    out, err, input = out or sys.stdout, err or sys.stderr, input or sys.stdin

    def notify(line: str) -> None:
        print(line, file=out, flush=True)

    file = IdentityFile(default_path())
    try:
        link = RoomLink.parse(args.connect)
        created = link.room_id is None
        if created and args.watch:
            raise ValueError("--watch needs a room link (http://HOST/r/ROOM)")
        days = getattr(args, "days", None)
        if days is not None and not created:
            raise ValueError("--days needs a server address (http://HOST:PORT): it makes a room")
        role = "spectator" if args.watch or link.watch else "player"
        if role == "spectator" and args.bot is not None:
            raise ValueError("--bot plays a seat: it cannot watch")
        player = None  # spectators need none: a server ignores it from them
        if role == "player" and not getattr(args, "guest", False):
            player = identity_for(link.http_base, file, name=args.name, notify=notify)
        if created:
            days_per_move = {"days": days} if days is not None else None
            link = create_room(link, rules_from_args(args), time_control=days_per_move)
        client = RoomClient(
            link,
            role=role,
            name=args.name,
            notify=notify,
            player=player.credentials() if player is not None else None,
        )
        client.connect()
        if created:  # only now: the creator holds the first seat before anyone is invited
            notify(f"Created a room. Invite the other player: {link.play_url}")
    except (ValueError, Refused, Disconnected, IdentityError) as exc:
        if isinstance(exc, Refused) and exc.code == "bad_identity":
            exc = unknown_identity(link.http_base, file)
        print(f"tictactoe: error: {exc}", file=err)
        return 2
    try:
        if client.mark is None:
            notify(f"Watching room {link.room_id} ({client.rules.describe()}).")
        else:
            notify(f"You are {client.mark} in room {link.room_id} ({client.rules.describe()}).")
        if client.status == "waiting":
            notify(f"Waiting for players to join {link.play_url} ...")
            client.wait(lambda: client.status != "waiting")
        bots = [shown_name(p) for p in client.players if p.get("bot_account")]
        if bots:  # a program plays here: said once, as the browser's BOT mark says it
            notify(f"{', '.join(bots)}: a bot account, a program, plays in this room.")
        local: MoveSource | None = None
        if client.mark is not None:
            bot = args.bot is not None
            local = bot_from_args(args, client.rules) if bot else TerminalSeat(input, out)
        return play_room(client, local, out=out, err=err)
    except (Refused, Disconnected) as exc:
        out.flush()
        print(f"tictactoe: error: {exc}", file=err)
        return 2
    finally:
        client.close()
