"""What a player types at the terminal: a line parsed into a command, and the prompts.

A move is whole numbers separated by spaces or commas, 0-based as the board's labels:
``row col`` on a flat board, ``col`` with gravity, ``row col layer`` in 3D, and ``row col``
in 3D with gravity (the piece settles on the lowest free layer). The words ``undo``,
``redo``, ``help`` and ``quit`` are commands. A line that is neither gets a MalformedMove naming
what was expected, like any other bad move.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from core import MalformedMove, MoveRequest, Rules

__all__ = [
    "Command",
    "Help",
    "PlayMove",
    "Quit",
    "Redo",
    "Undo",
    "help_text",
    "move_fields",
    "parse_command",
    "prompt",
]


@dataclass(frozen=True, slots=True)
class PlayMove:
    request: MoveRequest


@dataclass(frozen=True, slots=True)
class Undo:
    """Take back the last move."""


@dataclass(frozen=True, slots=True)
class Redo:
    """Play again the move undo took back last."""


@dataclass(frozen=True, slots=True)
class Help:
    """Show how to type moves."""


@dataclass(frozen=True, slots=True)
class Quit:
    """Stop playing; the game is left unfinished."""


Command = PlayMove | Undo | Redo | Help | Quit

_WORDS: dict[str, Command] = {
    "undo": Undo(),
    "u": Undo(),
    "redo": Redo(),
    "r": Redo(),
    "help": Help(),
    "h": Help(),
    "?": Help(),
    "quit": Quit(),
    "q": Quit(),
    "exit": Quit(),
}
_WHOLE_NUMBER = re.compile(r"[+-]?[0-9]+")
_NUMBER_WORDS = ("one", "two", "three")


def move_fields(rules: Rules) -> tuple[str, ...]:
    """The coordinates a move is typed as under these rules, in order."""
    if rules.gravity:
        return ("row", "col") if rules.is_3d else ("col",)
    return ("row", "col", "layer") if rules.is_3d else ("row", "col")


def prompt(rules: Rules, mark: str) -> str:
    return f"{mark} to move ({' '.join(move_fields(rules))}): "


def _expected(rules: Rules) -> str:
    fields = move_fields(rules)
    noun = "whole number" if len(fields) == 1 else "whole numbers"
    return f"{_NUMBER_WORDS[len(fields) - 1]} {noun} ({' '.join(fields)})"


def parse_command(line: str, rules: Rules) -> Command | None:
    """The command a typed line asks for; None for a blank line (nothing asked)."""
    tokens = line.replace(",", " ").split()
    if not tokens:
        return None
    if len(tokens) == 1 and tokens[0].lower() in _WORDS:
        return _WORDS[tokens[0].lower()]
    fields = move_fields(rules)
    if tokens[0][:1].isalpha():
        raise MalformedMove(
            f"unknown command {line.strip()!r}: type a move as {_expected(rules)}, "
            "or undo, redo, help, quit"
        )
    if len(tokens) != len(fields):
        raise MalformedMove(f"a move here is {_expected(rules)}, got {line.strip()!r}")
    values: dict[str, int] = {}
    for name, token in zip(fields, tokens, strict=True):
        if not _WHOLE_NUMBER.fullmatch(token):
            raise MalformedMove(f"{name} must be a whole number, got {token!r}")
        values[name] = int(token)
    return PlayMove(MoveRequest(**values))


def help_text(rules: Rules) -> str:
    fields = move_fields(rules)
    example = " ".join("1" for _ in fields)
    axes = "rows, columns and layers" if rules.is_3d else "rows and columns"
    how = (
        f"Type a move as {' '.join(fields)}, e.g. {example!r}; "
        f"{axes} count from 0, as the board's labels show."
    )
    lines = [f"Rules: {rules.describe()}.", how]
    lines.append("On the board [X] marks the last move and, at the end, *X* the completed line.")
    if rules.gravity:
        lines.append(
            "Gravity: the piece settles on the lowest free layer of that pillar."
            if rules.is_3d
            else "Gravity: name a column; the piece drops to the lowest free row."
        )
    ways = (
        "across, down, diagonally or through the layers"
        if rules.is_3d
        else ("across, down or diagonally")
    )
    goal = f"Complete {rules.k} in a row ({ways})"
    lines.append(f"{goal} and you lose." if rules.misere else f"{goal} to win.")
    lines.append(
        "Commands: undo or u (take back the last move), redo or r (play a taken-back move "
        "again, until a new move is played), help, h or ? (this text), "
        "quit, q or exit (stop without a result)."
    )
    return "\n".join(lines)
