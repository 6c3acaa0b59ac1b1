"""``tictactoe bot --connect URL --engine "CMD ARGS"``: an engine of any language plays online.

Starts the engine (cli.bridge.driver: the handshake of docs/engine-protocol.md), then takes
a seat in the room of a room link and plays its game to the end (cli.bridge.online). What
the bridge and the engine say goes to stderr, one line each, prefixed ``bot:``, ``engine:``
(its ``info`` lines) and ``engine stderr:``.

Exit codes: 0 the game was played to its end; 2 no game was played (the engine did not
start or does not play the room's rules, a bad link, the server refused the seat); 3 the
engine failed during the game and the bridge resigned it.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from typing import Any

from client import ClientError, Refused, RoomLink

from .driver import HANDSHAKE_TIMEOUT, Engine
from .errors import EngineError
from .online import NOT_PLAYED, play_room

__all__ = ["register", "run_bot"]


def _say(prefix: str) -> Any:
    def say(line: str) -> None:
        print(f"{prefix}: {line}", file=sys.stderr, flush=True)

    return say


async def run_bot(args: argparse.Namespace) -> int:
    log = _say("bot")
    try:
        link = RoomLink.parse(args.connect)
    except ValueError as exc:
        log(f"error: --connect: {exc}")
        return NOT_PLAYED
    if link.room_id is None or link.watch:
        log(f"error: --connect needs a room link ({link.http_base}/r/ROOM) to take a seat in")
        return NOT_PLAYED
    try:
        engine = await Engine.start(
            args.engine,
            handshake_timeout=args.handshake_timeout,
            on_stderr=_say("engine stderr"),
            on_info=_say("engine"),
        )
    except EngineError as exc:
        log(f"error: {exc.report()}")
        return NOT_PLAYED
    assert engine.info is not None
    supports = "; ".join(str(line) for line in engine.info.supports)
    log(f"engine {engine.info.name} {engine.info.version} ({supports})")
    try:
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


def run(args: argparse.Namespace) -> int:
    if not args.move_time > 0:
        print("tictactoe: error: --move-time must be above 0 seconds", file=sys.stderr)
        return NOT_PLAYED
    return asyncio.run(run_bot(args))


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "bot",
        help="play online with an engine of any language (docs/engine-protocol.md)",
        description=(
            "Run an engine that speaks the engine protocol (docs/engine-protocol.md) and play "
            "a room's game with it. Exit 0: the game was played; 2: no game was played; "
            "3: the engine failed and the game was resigned."
        ),
    )
    parser.add_argument(
        "--connect", required=True, metavar="URL", help="a room link: http://HOST:PORT/r/ROOM"
    )
    parser.add_argument(
        "--engine",
        required=True,
        metavar='"CMD ARGS"',
        help='the engine\'s command line, e.g. "tictactoe engine --level hard" or '
        '"awk -f my_engine.awk"',
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
    parser.add_argument("--name", default=None, help="the seat's name (default: the engine's name)")
    parser.set_defaults(func=run)
