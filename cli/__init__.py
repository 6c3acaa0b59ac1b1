"""The ``tictactoe`` command: one subcommand per module in this package.

Each subcommand module defines ``register(subparsers)``, which adds its parser and sets
``func`` (taking the parsed arguments, returning the exit code). Modules are imported only
when listed here, so adding a command is adding a module and a line. The engine's commands
live in ``cli/engine/``, the terminal client in ``cli/terminal/``; serving, loading and
soaking the server are the modules at the top.
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
    "bench": "cli.bench",
    "soak": "cli.soak",
}
"""Each subcommand's name and the module that registers it, in the order ``--help`` lists."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tictactoe",
        description="Tic-Tac-Toe and its family: play, solve, serve, benchmark.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for module in COMMANDS.values():
        importlib.import_module(module).register(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.func(args)
    except KeyboardInterrupt:
        print(file=sys.stderr)
        return 130
    return code


if __name__ == "__main__":
    sys.exit(main())
