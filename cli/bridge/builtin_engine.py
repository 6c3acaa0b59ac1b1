"""``tictactoe engine --level LEVEL``: the project's own bots as engines of the engine protocol.

Reads the bridge's lines on stdin and answers on stdout (docs/engine-protocol.md), so
``tictactoe bot --engine "tictactoe engine --level hard"`` plays online like any other
engine, and an engine author can watch a reference engine speak. A bot is kept while the
move time stays the same (the perfect bot's tables then outlive a move); its random choices
follow ``--seed``.
"""

from __future__ import annotations

import argparse
import random
import sys
from importlib import metadata
from typing import Any, TextIO

from core import GameError
from core.ai import LEVELS, Bot, Budget, make_bot

from .protocol import PROTOCOL_VERSION, EngineInfo, RulesFilter, parse_go, parse_position

__all__ = ["THINKING_SHARE", "engine_info", "register", "serve"]

THINKING_SHARE = 0.7
"""Of the move time given, the share the bot's budget gets: the rest is for the search to
notice its budget is spent, and for the answer to reach the bridge."""


def engine_info(level: str) -> EngineInfo:
    try:
        version = metadata.version("tictactoe-server")
    except metadata.PackageNotFoundError:  # run from a source tree that was never installed
        version = "source"
    # the solver plays two-player games only; the other levels play the whole family
    supports = RulesFilter.parse(["players=2"]) if level == "perfect" else RulesFilter()
    return EngineInfo(f"tictactoe {level}", version, (supports,))


class _Bots:
    """The level's bot for a move time: rebuilt only when the move time changes."""

    def __init__(self, level: str, seed: int | None) -> None:
        self._level = level
        self._seeds = random.Random(seed)
        self._bot: Bot | None = None
        self._budget: Budget | None = None

    def for_movetime(self, movetime: float) -> Bot:
        budget = Budget(seconds=max(movetime * THINKING_SHARE, 0.01))
        if self._bot is None or budget != self._budget:
            seed = self._seeds.randrange(2**32)
            self._bot, self._budget = make_bot(self._level, seed=seed, budget=budget), budget
        return self._bot


def serve(level: str, seed: int | None, stdin: TextIO, stdout: TextIO) -> int:
    """Answer the bridge until ``quit`` or the end of stdin; exit code 0."""
    info = engine_info(level)
    bots = _Bots(level, seed)
    game = None

    def say(line: str) -> None:
        print(line, file=stdout, flush=True)

    for raw in stdin:
        line = raw.strip()
        word, _, rest = line.partition(" ")
        if word == "tttengine":
            if rest.strip() != str(PROTOCOL_VERSION):
                say(f"error this engine speaks protocol {PROTOCOL_VERSION}, not {rest!r}")
                continue
            for answer in info.lines():
                say(answer)
        elif word == "position":
            try:
                game = parse_position(line)
            except ValueError as exc:
                game = None
                say(f"error bad position: {exc}")
        elif word == "go":
            try:
                movetime = parse_go(line).movetime
            except ValueError as exc:
                say(f"error {exc}")
                continue
            if game is None:
                say("error go without a position")
                continue
            try:
                move = bots.for_movetime(movetime).choose(game)
            except GameError as exc:
                say(f"error {exc}")
                continue
            cell = [move.row, move.col] + ([move.layer] if game.rules.is_3d else [])
            say("bestmove " + ",".join(map(str, cell)))
        elif word == "quit":
            return 0
        elif line:
            say(f"info ignored {word!r}: not a command of protocol {PROTOCOL_VERSION}")
    return 0


def run(args: argparse.Namespace) -> int:
    return serve(args.level, args.seed, sys.stdin, sys.stdout)


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "engine",
        help="a bot of this project as an engine: speaks docs/engine-protocol.md on stdin/out",
        description=(
            "Speak the engine protocol (docs/engine-protocol.md) on stdin and stdout with one "
            "of the project's bots, for `tictactoe bot --engine`."
        ),
    )
    parser.add_argument("--level", choices=LEVELS, default="hard", help="the bot (default hard)")
    parser.add_argument("--seed", type=int, default=None, help="seed for the bot's choices")
    parser.set_defaults(func=run)
