"""``tictactoe play --connect URL [--watch]``: the terminal game as a client of a server.

Plugs two move sources into the terminal game's seats: ``NetworkSeat`` (this terminal's
seat: typed here, judged by the server) and ``RemoteSeat`` (a seat played elsewhere: its
moves arrive from the server). The local game only mirrors the server's move list, so the
server stays the only authority and the board on screen is always one it accepted. A player
joins with the guest identity kept for that server (identity_file; made on first use) unless
``--guest`` says not to, so the seat is linked to it.
"""

from __future__ import annotations

import argparse
import sys
from typing import TextIO

from core import Game, MalformedMove, MoveRequest, Rules

from .game_loop import play_game
from .identity_file import IdentityError, IdentityFile, default_path, identity_for
from .move_input import Command, PlayMove, Redo, Undo
from .net_client import Disconnected, NetError, RoomClient, RoomLink, create_room
from .rules_flags import rules_from_args
from .seats import MoveSource, TerminalSeat

__all__ = ["NetworkSeat", "RemoteSeat", "play_connected"]


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
        if len(self._client.moves) <= index:
            print(f"Waiting for {game.turn} to move...", file=self._out, flush=True)
            self._client.wait(lambda: len(self._client.moves) > index)
        return PlayMove(_request(game.rules, self._client.moves[index]))


class NetworkSeat:
    """This terminal's seat: the player types a move, the server decides if it lands."""

    def __init__(self, terminal: TerminalSeat, client: RoomClient) -> None:
        self._terminal = terminal
        self._client = client

    def next_command(self, game: Game) -> Command | None:
        command = self._terminal.next_command(game)
        if isinstance(command, Undo | Redo):
            word = "undo" if isinstance(command, Undo) else "redo"
            raise MalformedMove(f"{word} is not available in a game over the network")
        if not isinstance(command, PlayMove):
            return command
        index = len(game.history)
        self._client.play(command.request)  # NetError (a GameError) when refused
        self._client.wait(lambda: len(self._client.moves) > index)
        return PlayMove(_request(game.rules, self._client.moves[index]))


def play_connected(
    args: argparse.Namespace,
    *,
    out: TextIO = sys.stdout,
    err: TextIO = sys.stderr,
    input: TextIO = sys.stdin,
) -> int:
    def notify(line: str) -> None:
        print(line, file=out, flush=True)

    file = IdentityFile(default_path())
    try:
        link = RoomLink.parse(args.connect)
        created = link.room_id is None
        if created and args.watch:
            raise ValueError("--watch needs a room link (http://HOST/r/ROOM)")
        role = "spectator" if args.watch or link.watch else "player"
        player = None  # spectators need none: a server ignores it from them
        if role == "player" and not getattr(args, "guest", False):
            player = identity_for(link.http_base, file, name=args.name, notify=notify)
        if created:
            link = create_room(link, rules_from_args(args))
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
    except (ValueError, NetError, Disconnected, IdentityError) as exc:
        if isinstance(exc, NetError) and exc.code == "bad_identity":
            exc = IdentityError(
                f"{link.http_base} does not know the identity kept for it in {file.path} (it "
                "expired after 400 days unused, or the server lost its data). Remove that "
                "server's entry from the file to get a new one, or play with --guest"
            )
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
        game = Game(client.rules)
        for move in list(client.moves):
            game.play(_request(client.rules, move))
        terminal = TerminalSeat(input, out)
        remote = RemoteSeat(client, out)
        seats: dict[str, MoveSource] = {
            mark: NetworkSeat(terminal, client) if mark == client.mark else remote
            for mark in game.rules.marks
        }
        return play_game(game, seats, out=out, err=err)
    except (NetError, Disconnected) as exc:
        out.flush()
        print(f"tictactoe: error: {exc}", file=err)
        return 2
    finally:
        client.close()
