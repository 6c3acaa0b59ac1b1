"""The ``tictactoe`` command: one subcommand per module in this package.

Each subcommand module defines ``register(subparsers)``, which adds its parser and sets
``func`` (taking the parsed arguments, returning the exit code). Modules are imported only
when listed here, so adding a command is adding a module and a line; a run imports only its
own command's module (``tictactoe solve`` loads the engine, never the web server: it starts
in a few tens of milliseconds), ``--help`` and mistakes all of them. The engine's commands
live in ``cli/engine/``, the terminal client in ``cli/terminal/``, the engine bridge (``bot``,
and the project's bots as engines, ``engine``) in ``cli/bridge/``, the soak's command in
``cli/soak/``; serving and loading the server are the modules at the top.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

__all__ = ["main"]

COMMANDS = {
    "perft": "cli.engine.perft",
    "play": "cli.terminal.play",
    "serve": "cli.serve",
    "solve": "cli.engine.solve",
    "analyze": "cli.engine.analyze",
    "tournament": "cli.engine.tournament",
    "book": "cli.engine.book",
    "engine": "cli.bridge.builtin_engine",
    "bot": "cli.bridge.bot_command",
    "bench": "cli.bench",
    "soak": "cli.soak",
}
"""Each subcommand's name and the module that registers it, in the order ``--help`` lists."""


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or of ``only`` (one of COMMANDS) alone."""
    parser = argparse.ArgumentParser(
        prog="tictactoe",
        description="Tic-Tac-Toe and its family: play, solve, serve, benchmark.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module in COMMANDS.items():
        if only is None or name == only:
            importlib.import_module(module).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    command = next((word for word in words if not word.startswith("-")), None)
    try:  # Ctrl-C ends any command quietly, even one still importing its module
        parser = build_parser(command if command in COMMANDS else None)
        args = parser.parse_args(words)
        code: int = args.func(args)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
