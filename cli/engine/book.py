"""``tictactoe book``: build, show and check the opening books the perfect bot plays from.

``book build`` proves a book with the project's solver (``core.ai.book.BookBuilder``),
printing its progress on stderr and saving it every --save-every-s seconds to --progress, so
that a build stopped (Ctrl-C, a crash) continues where it was when run again; at the end it
writes the book file (by default the shipped one in ``core/ai/book/data/``). ``book show``
prints a book's header and how deep it reaches; ``book check`` re-proves sampled entries
with the solver.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

from core import Game, GameError, Rules
from core.ai import UNLIMITED, SearchProgress, Solver
from core.ai.book import (
    DEFAULT_LEAF_NODES,
    BadBook,
    Book,
    BookBuilder,
    BuildProgress,
    book_keys,
    book_lines,
    decode,
    encode,
    shipped_name,
)
from core.ai.book.build import BOT, OPPONENT, Snapshot
from core.ai.book.codec import FORMAT_VERSION, pack

from ..ai_flags import fail
from ..rules_flags import add_rules_flags, rules_from_args

__all__ = ["load_book_file", "register", "run_build", "run_check", "run_show"]

DATA_DIR = Path(__file__).resolve().parents[2] / "core" / "ai" / "book" / "data"


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "book",
        help="build, show or check an opening book (proven values for the perfect bot)",
        description="Opening books: the proven value and a value-keeping move of every "
        "position the perfect bot can meet before its live search proves in time.",
    )
    commands = parser.add_subparsers(dest="book_command", metavar="ACTION", required=True)
    build = commands.add_parser("build", help="prove a book with the solver (resumable)")
    add_rules_flags(build, players=False)
    build.add_argument(
        "--out",
        type=Path,
        default=None,
        help="the book file to write (default: the shipped one in core/ai/book/data/)",
    )
    build.add_argument(
        "--progress",
        type=Path,
        default=None,
        help="where progress is saved and resumed from (default: OUT.progress)",
    )
    build.add_argument(
        "--leaf-nodes",
        type=int,
        default=DEFAULT_LEAF_NODES,
        help="a position a fresh solver proves within this many nodes is "
        f"left to the live search (default {DEFAULT_LEAF_NODES})",
    )
    build.add_argument(
        "--max-plies",
        type=int,
        default=None,
        help="go no deeper than this ply (default: until the leaves)",
    )
    build.add_argument(
        "--stop-after-s",
        type=float,
        default=None,
        help="stop after this many seconds and write the book of what is proven so far "
        "(its header says complete: false; run again to continue)",
    )
    build.add_argument("--save-every-s", type=float, default=30.0, help="seconds between saves")
    build.set_defaults(func=run_build)
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
    show = commands.add_parser("show", help="a book's header and depth")
    _add_book_source(show)
    show.set_defaults(func=run_show)
    check = commands.add_parser("check", help="re-prove sampled entries with the solver")
    _add_book_source(check)
    check.add_argument("--sample", type=int, default=20, help="entries to re-prove")
    check.add_argument("--seed", type=int, default=0)
    check.set_defaults(func=run_check)


def _add_book_source(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=Path, help="a book file")


def load_book_file(path: Path, rules: Rules | None = None) -> Book:
    """The book in ``path``, checked; exits with why when it cannot be read."""
    try:
        data = decode(path.read_bytes(), rules)
    except OSError as exc:
        fail(f"cannot read {path}: {exc.strerror}")
    except BadBook as exc:
        fail(f"{path}: {exc}")
    return Book(data.rules, data.entries, data.info)


# -- build ---------------------------------------------------------------------------------


def run_build(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if args.leaf_nodes < 1:
        fail(f"--leaf-nodes must be 1 or more, got {args.leaf_nodes}")
    out = args.out or _shipped_path(rules)
    progress_path = args.progress or out.with_name(out.name + ".progress")
    for folder in {out.parent, progress_path.parent}:
        folder.mkdir(parents=True, exist_ok=True)
    done, proven, roles = _resume(progress_path, rules, args.leaf_nodes)
    if done or proven:
        print(
            f"book: resuming from {progress_path}: {len(done):,} positions done, "
            f"{len(proven):,} proven on the way",
            file=sys.stderr,
            flush=True,
        )
    last = {"save": time.monotonic(), "say": 0.0}
    builder: BookBuilder

    def report(progress: BuildProgress) -> None:
        now = time.monotonic()
        if now - last["say"] >= 5:
            last["say"] = now
            print(
                f"book: {progress.done:,} positions done ({progress.leaves:,} leaves), "
                f"{progress.proven:,} in progress, ply {progress.ply} "
                f"(deepest {progress.deepest}), {progress.seconds:.0f} s",
                file=sys.stderr,
                flush=True,
            )
        if args.stop_after_s is not None and progress.seconds >= args.stop_after_s:
            raise _TimeUp
        if now - last["save"] >= args.save_every_s:
            last["save"] = now
            _save_progress(progress_path, rules, args.leaf_nodes, builder.snapshot())

    def searching(progress: SearchProgress) -> None:
        if progress.seconds >= 5 and int(progress.seconds) % 10 == 0:
            print(
                f"book: a long proof: {progress.nodes:,} nodes, {progress.seconds:.0f} s",
                file=sys.stderr,
                flush=True,
            )

    builder = BookBuilder(
        rules,
        leaf_nodes=args.leaf_nodes,
        max_plies=args.max_plies,
        done=done,
        proven=proven,
        roles=roles,
        on_progress=report,
        on_search=searching,
    )
    previous = signal.signal(signal.SIGTERM, _interrupt)  # a kill saves the progress too
    started = time.monotonic()
    complete = False
    try:
        builder.build()
        complete = True
    except KeyboardInterrupt:
        _save_progress(progress_path, rules, args.leaf_nodes, builder.snapshot())
        print(f"book: stopped; progress saved to {progress_path}", file=sys.stderr)
        return 130
    except _TimeUp:
        print(f"book: --stop-after-s reached; progress saved to {progress_path}", file=sys.stderr)
    finally:
        signal.signal(signal.SIGTERM, previous)
    _save_progress(progress_path, rules, args.leaf_nodes, builder.snapshot())
    book = _write_book(out, builder, args, complete)
    print(
        json.dumps(
            {
                "book": str(out),
                "entries": len(book),
                **book.info,
                "seconds": round(time.monotonic() - started, 1),
            },
            ensure_ascii=False,
        )
    )
    return 0


def _interrupt(signum: int, frame: object) -> None:
    raise KeyboardInterrupt


class _TimeUp(Exception):
    """--stop-after-s: the build stops, its progress saved, and writes what it has."""


def _write_book(out: Path, builder: BookBuilder, args: argparse.Namespace, complete: bool) -> Book:
    """The book file of every proven position so far (all of them when ``complete``)."""
    done, proven, roles = builder.snapshot()
    entries = {**proven, **done}
    root, _ = book_keys(builder.rules).key(Game(builder.rules).board.cells)
    info: dict[str, Any] = {
        "leaf_nodes": args.leaf_nodes,
        "max_plies": args.max_plies,
        "complete": complete,
        # which side's strategy (the bot moving first, second) is in the book to its leaves
        "strategies": {
            "first": bool(roles.get(root, 0) & BOT),
            "second": bool(roles.get(root, 0) & OPPONENT),
        },
        "proven_by": "tictactoe's solver (core.ai.solver)",
    }
    book = Book(builder.rules, entries, info)
    info["plies"] = _depth(book)
    _write_atomic(out, encode(builder.rules, entries, info))
    return Book(builder.rules, entries, info)


def _depth(book: Book) -> int:
    """The deepest ply of a position the book holds, reached from the empty board."""
    return max((game.ply for _, _, game in book_lines(book)), default=0)


def _resume(
    path: Path, rules: Rules, leaf_nodes: int
) -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    if not path.exists():
        return {}, {}, {}
    try:
        saved = json.loads(path.read_text())
        same = Rules.from_dict(saved["rules"]) == rules and saved["leaf_nodes"] == leaf_nodes
        done = {int(k, 16): v for k, v in saved["done"].items()}
        proven = {int(k, 16): v for k, v in saved["proven"].items()}
        roles = {int(k, 16): v for k, v in saved["roles"].items()}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        fail(f"cannot resume from {path}: {exc}")
    if not same:
        fail(f"{path} is the progress of another build (rules or --leaf-nodes differ)")
    return done, proven, roles


def _save_progress(path: Path, rules: Rules, leaf_nodes: int, snapshot: Snapshot) -> None:
    done, proven, roles = snapshot
    data = {
        "version": FORMAT_VERSION,
        "rules": rules.to_dict(),
        "leaf_nodes": leaf_nodes,
        "done": {f"{k:x}": v for k, v in done.items()},
        "proven": {f"{k:x}": v for k, v in proven.items()},
        "roles": {f"{k:x}": v for k, v in roles.items()},
    }
    _write_atomic(path, json.dumps(data).encode())


def _write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` so that a crash leaves either the old file or the new one."""
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_bytes(data)
    os.replace(temporary, path)


# -- add ---------------------------------------------------------------------------------

_VALUES = {"win": 1, "draw": 0, "loss": -1}


def run_add(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    out = args.out or _shipped_path(rules)
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
    info["plies"] = _depth(book)
    out.parent.mkdir(parents=True, exist_ok=True)
    _write_atomic(out, encode(rules, entries, info))
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


def _shipped_path(rules: Rules) -> Path:
    name = shipped_name(rules)
    if name is None:
        fail(f"no shipped book for {rules.describe()}: give --out")
    return DATA_DIR / name


# -- show and check ------------------------------------------------------------------------


def run_show(args: argparse.Namespace) -> int:
    book = load_book_file(args.file)
    plies: dict[int, int] = {}
    for _, _, game in book_lines(book):
        plies[game.ply] = plies.get(game.ply, 0) + 1
    print(
        json.dumps(
            {
                "rules": book.rules.describe(),
                "entries": len(book),
                **book.info,
                "positions_by_ply": plies,
            },
            ensure_ascii=False,
        )
    )
    return 0


def run_check(args: argparse.Namespace) -> int:
    book = load_book_file(args.file)
    lines = list(book_lines(book))
    rng = random.Random(args.seed)
    sample = rng.sample(lines, min(args.sample, len(lines)))
    solver = Solver(book.rules)
    wrong = 0
    for _, line, game in sorted(sample, key=lambda item: -item[2].ply):
        entry = book.probe(game.board.cells)
        assert entry is not None
        position = solver.start(game, UNLIMITED)
        value = solver.value(position)
        kept = solver.move_value(position, solver.layout.move(entry.move))
        ok = value == entry.value and kept == value
        wrong += not ok
        print(
            json.dumps(
                {
                    "line": list(line),
                    "book": entry.value,
                    "solver": value,
                    "move_keeps": kept == value,
                }
            ),
            flush=True,
        )
    print(json.dumps({"checked": len(sample), "wrong": wrong}))
    return 1 if wrong else 0
