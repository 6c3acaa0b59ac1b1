"""``tictactoe book add``: put the line of a result proven elsewhere into a book, for a board
the solver cannot prove (its header's ``known`` names the source)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

from core import Game, GameError
from core.ai.book import Book, book_keys, encode
from core.ai.book.codec import pack

from ...ai_flags import fail
from ...rules_flags import add_rules_flags, rules_from_args
from .files import book_depth, load_book_file, shipped_path, write_atomic

__all__ = ["register", "run_add"]

_VALUES = {"win": 1, "draw": 0, "loss": -1}


def register(commands: Any) -> None:
    add = commands.add_parser(
        "add",
        help="add a known result's line to a book (for a board the solver cannot prove)",
        description="Add the positions along --line (from the empty board) with their values: "
        "--value is the empty board's, for the first player, and the line must end where "
        "the side to move loses (every move keeps that value). --source names the proof; "
        "the header records it.",
    )
    add_rules_flags(add, players=False)
    add.add_argument("--out", type=Path, default=None, help="the book file (default: shipped)")
    add.add_argument(
        "--line",
        required=True,
        help="the moves, comma-separated: columns under gravity, else cell indices, from 0",
    )
    add.add_argument("--value", required=True, choices=sorted(_VALUES), help="for the first player")
    add.add_argument("--source", required=True, help="where the result is proven")
    add.set_defaults(func=run_add)


def run_add(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    out = args.out or shipped_path(rules)
    game = Game(rules)
    keys = book_keys(rules)
    value = _VALUES[args.value]
    found: dict[int, int] = {}
    try:
        moves = [int(part) for part in args.line.split(",")]
        for step, move in enumerate(moves):
            index = _cell_of(game, move)
            key, sym = keys.key(game.board.cells)
            found[key] = pack(value if step % 2 == 0 else -value, keys.to_keyed(index, sym))
            game.play_index(index)
    except (ValueError, GameError) as exc:
        fail(f"--line: {exc}")
    last = value if len(moves) % 2 == 0 else -value
    if game.is_over or last != -1:
        fail("--line must end where the side to move loses (then any move keeps the value)")
    key, sym = keys.key(game.board.cells)
    found[key] = pack(-1, keys.to_keyed(game.legal_indices()[0], sym))
    entries: dict[int, int] = {}
    info: dict[str, Any] = {"complete": False, "strategies": {"first": False, "second": False}}
    if out.exists():
        book = load_book_file(out, rules)
        entries, info = dict(book.entries), book.info
    entries.update(found)
    known = [*info.get("known", []), {"line": moves, "value": args.value, "source": args.source}]
    info = {k: v for k, v in info.items() if k != "sha256"} | {"known": known}
    book = Book(rules, entries, info)
    info["plies"] = book_depth(book)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(out, encode(rules, entries, info))
    print(json.dumps({"book": str(out), "entries": len(entries), **info}, ensure_ascii=False))
    return 0


def _cell_of(game: Game, move: int) -> int:
    """The cell a --line move names: a column under gravity, else a cell index."""
    return _drop(game, move) if game.rules.gravity else move


def _drop(game: Game, column: int) -> int:
    for index in game.legal_indices():
        if game.rules.coords(index)[1] == column:
            return index
    raise ValueError(f"column {column} cannot take a mark now")
