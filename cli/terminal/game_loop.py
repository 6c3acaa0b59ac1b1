"""The terminal game loop: a game played to its end, one move source per mark.

A source is a person at the keyboard, a bot, or a server the game is played on; shared by
``play`` and ``play --connect``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TextIO

from core import Game, GameError

from .board_view import describe_cell, render_board, result_line
from .move_input import Help, PlayMove, Quit, Redo, Undo, help_text, move_fields
from .seats import MoveSource

__all__ = ["play_game"]


def _intro(game: Game) -> str:
    rules = game.rules
    order = ", then ".join(rules.marks)
    return (
        f"Tic-Tac-Toe {rules.describe()}: {order}. "
        f"Moves are {' '.join(move_fields(rules))}; type help for more."
    )


def _apply(game: Game, mark: str, command: PlayMove | Undo | Redo) -> str:
    """Play, take back or replay a move; says what happened, or raises the engine's
    GameError."""
    if isinstance(command, Undo):
        taken = game.undo()
        return f"Took back {game.turn}'s move at {describe_cell(game.rules, taken)}."
    if isinstance(command, Redo):
        replayed = game.redo()
        return f"{mark} plays {describe_cell(game.rules, replayed)} again."
    played = game.play(command.request)
    return f"{mark} plays {describe_cell(game.rules, played)}."


def play_game(game: Game, seats: Mapping[str, MoveSource], *, out: TextIO, err: TextIO) -> int:
    """Play ``game`` to its end with a move source per mark; returns the exit code."""
    print(_intro(game), file=out)
    print(render_board(game), file=out)
    while not game.is_over:
        mark = game.turn
        try:
            command = seats[mark].next_command(game)
        except GameError as exc:
            print(f"error: {exc}", file=out)
            continue
        if command is None:
            out.flush()  # the transcript so far goes before the complaint
            print(
                f"tictactoe: error: the input ended before the game did ({mark} to move)", file=err
            )
            return 1
        if isinstance(command, Quit):
            print(f"{mark} quit; the game is left unfinished.", file=out)
            return 0
        if isinstance(command, Help):
            print(help_text(game.rules), file=out)
            continue
        try:
            said = _apply(game, mark, command)
        except GameError as exc:
            print(f"error: {exc}", file=out)
            continue
        print(said, file=out)
        print(render_board(game), file=out)
    print(result_line(game), file=out)
    return 0
