"""``tictactoe bot --connect URL --engine "CMD ARGS"``: an engine of any language plays online.

Starts the engine (cli.bridge.driver: the handshake of docs/engine-protocol.md), then either
takes a seat in the room of a room link and plays its game (cli.bridge.online), or, given a
server's address and a bot account's token, is that bot: answers its challenges and plays
every seat it is given (cli.bridge.account); given a tournament's link and the token of a bot
entered in it, plays the bot's games there until it is finished (cli.bridge.tournament). The
token is read from ``--token-file`` or the ``TICTACTOE_BOT_TOKEN`` environment variable, never
from the command line (which other users of the machine can list). What the bridge and the
engine say goes to stderr, one line each, prefixed ``bot:``, ``engine:`` (its ``info`` lines)
and ``engine stderr:``.

Exit codes: 0 the games were played to their end; 2 no game was played (the engine did not
start or does not play the room's rules, a bad link, a refused token or seat); 3 the engine
failed during a game and the bridge resigned it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from pathlib import Path
from typing import Any

from client import ClientError, Refused, RoomLink, TournamentLink

from .account import EngineCommand, serve_account
from .driver import HANDSHAKE_TIMEOUT
from .errors import EngineError
from .online import NOT_PLAYED, play_room
from .tournament import bot_id_of, play_tournament

__all__ = ["TOKEN_VARIABLE", "register", "run_bot"]

TOKEN_VARIABLE = "TICTACTOE_BOT_TOKEN"


def _say(prefix: str) -> Any:
    def say(line: str) -> None:
        print(f"{prefix}: {line}", file=sys.stderr, flush=True)

    return say


def _token(args: argparse.Namespace) -> str | None:
    """The bot account's token: ``--token-file``'s first line, else the environment's."""
    if args.token_file is not None:
        text = Path(args.token_file).read_text(encoding="utf-8").strip()
        return text.splitlines()[0].strip() if text else None
    return os.environ.get(TOKEN_VARIABLE) or None


async def run_bot(args: argparse.Namespace) -> int:
    log = _say("bot")
    try:
        token = _token(args)
        tournament = TournamentLink.parse(args.connect)
        if tournament is not None:
            if token is None:
                raise ValueError(f"a tournament is played as a bot account: {TOKEN_VARIABLE}")
            bot_id_of(token)  # a token of the wrong shape says so now
            return await _play_tournament(args, tournament, token, log)
        link = RoomLink.parse(args.connect)
    except (ValueError, OSError) as exc:
        log(f"error: {exc}")
        return NOT_PLAYED
    if link.watch:
        log("error: --connect: a watch link takes no seat; give the room's play link")
        return NOT_PLAYED
    if link.room_id is not None and args.challenge is not None:
        log("error: --challenge plays as a bot account: give the server's address, not a room")
        return NOT_PLAYED
    if link.room_id is None and token is None:
        log(
            f"error: --connect {link.http_base} names no room: give a room link "
            f"({link.http_base}/r/ROOM), or a bot account's token in --token-file or "
            f"{TOKEN_VARIABLE} to answer its challenges"
        )
        return NOT_PLAYED
    command = EngineCommand(
        args.engine, args.handshake_timeout, _say("engine stderr"), _say("engine")
    )
    try:
        engine = await command.start()
    except EngineError as exc:
        log(f"error: {exc.report()}")
        return NOT_PLAYED
    assert engine.info is not None
    info = engine.info
    log(f"engine {info.name} {info.version} ({'; '.join(str(line) for line in info.supports)})")
    try:
        if link.room_id is None:
            assert token is not None
            await engine.quit()  # each game starts its own: games may run side by side
            return await serve_account(
                link.http_base, token, command, info,
                move_time=args.move_time, name=args.name, games=args.games, log=log,
                challenge=args.challenge, rated=args.rated,
            )  # fmt: skip
        return await play_room(engine, link, move_time=args.move_time, name=args.name, log=log)
    except (EngineError, ClientError) as exc:
        if isinstance(exc, EngineError):
            log(f"error: {exc.report()}")
        else:
            log(f"error: {exc.code}: {exc}" if isinstance(exc, Refused) else f"error: {exc}")
        return NOT_PLAYED
    finally:
        code = await engine.quit()
        if code not in (0, None):
            log(f"the engine exited with code {code}")


async def _play_tournament(
    args: argparse.Namespace, link: TournamentLink, token: str, log: Any
) -> int:
    command = EngineCommand(
        args.engine, args.handshake_timeout, _say("engine stderr"), _say("engine")
    )
    try:
        probe = await command.start()  # the handshake once, before any game is joined
    except EngineError as exc:
        log(f"error: {exc.report()}")
        return NOT_PLAYED
    assert probe.info is not None
    log(f"engine {probe.info.name} {probe.info.version}")
    await probe.quit()
    try:
        return await play_tournament(
            link, token, command, move_time=args.move_time, name=args.name, log=log
        )
    except ClientError as exc:
        log(f"error: {exc.code}: {exc}" if isinstance(exc, Refused) else f"error: {exc}")
        return NOT_PLAYED


def run(args: argparse.Namespace) -> int:
    if not args.move_time > 0:
        print("tictactoe: error: --move-time must be above 0 seconds", file=sys.stderr)
        return NOT_PLAYED
    if args.rated and args.challenge is None:
        print("tictactoe: error: --rated goes with --challenge", file=sys.stderr)
        return NOT_PLAYED
    if args.games is not None and args.games < 1:
        print("tictactoe: error: --games must be 1 or more", file=sys.stderr)
        return NOT_PLAYED
    return asyncio.run(run_bot(args))


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "bot",
        help="play online with an engine of any language (docs/engine-protocol.md)",
        description=(
            "Run an engine that speaks the engine protocol (docs/engine-protocol.md) and play "
            "online with it: a room's game (a room link), or as a bot account (the server's "
            f"address, and the account's token in --token-file or {TOKEN_VARIABLE}). Exit 0: "
            "the games were played; 2: no game was played; 3: the engine failed in a game, "
            "which was resigned."
        ),
    )
    parser.add_argument(
        "--connect",
        required=True,
        metavar="URL",
        help="a room link (http://HOST:PORT/r/ROOM); with a bot account's token, a server "
        "(http://HOST:PORT) or a tournament the bot was entered in (http://HOST:PORT/t/ID)",
    )
    parser.add_argument(
        "--engine",
        required=True,
        metavar='"CMD ARGS"',
        help='the engine\'s command line, e.g. "tictactoe engine --level hard" or '
        '"awk -f my_engine.awk"',
    )
    parser.add_argument(
        "--token-file",
        default=None,
        metavar="FILE",
        help=f"a file holding the bot account's token (else ${TOKEN_VARIABLE})",
    )
    parser.add_argument(
        "--games",
        type=int,
        default=None,
        metavar="N",
        help="as a bot account: stop after N games (default: play until stopped)",
    )
    parser.add_argument(
        "--challenge",
        default=None,
        metavar="BOT_ID",
        help="as a bot account: first challenge that bot (its player_id) to a classic game",
    )
    parser.add_argument(
        "--rated",
        action="store_true",
        help="with --challenge: a rated game, in the bots' rating pool",
    )
    parser.add_argument(
        "--move-time",
        type=float,
        default=1.0,
        metavar="S",
        help="most seconds the engine may think per move (default 1; less on a short clock)",
    )
    parser.add_argument(
        "--handshake-timeout",
        type=float,
        default=HANDSHAKE_TIMEOUT,
        metavar="S",
        help=f"seconds the engine has to start and shake hands (default {HANDSHAKE_TIMEOUT:g})",
    )
    parser.add_argument("--name", default=None, help="the seat's name (default: the engine's)")
    parser.set_defaults(func=run)
