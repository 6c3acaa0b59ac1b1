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
import sys
import time
from pathlib import Path
from typing import Any

from core import Rules
from core.ai import UNLIMITED, SearchProgress, Solver
from core.ai.book import (
    DEFAULT_LEAF_NODES,
    BadBook,
    Book,
    BookBuilder,
    BuildProgress,
    book_lines,
    decode,
    encode,
    shipped_name,
)
from core.ai.book.build import Snapshot
from core.ai.book.codec import FORMAT_VERSION

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
    build.add_argument("--save-every-s", type=float, default=30.0, help="seconds between saves")
    build.set_defaults(func=run_build)
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
    out = args.out
    if out is None:
        name = shipped_name(rules)
        if name is None:
            fail(f"no shipped book for {rules.describe()}: give --out")
        out = DATA_DIR / name
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
    )
    started = time.monotonic()
    try:
        entries = builder.build()
    except KeyboardInterrupt:
        _save_progress(progress_path, rules, args.leaf_nodes, builder.snapshot())
        print(f"book: stopped; progress saved to {progress_path}", file=sys.stderr)
        return 130
    _save_progress(progress_path, rules, args.leaf_nodes, builder.snapshot())
    info = {"leaf_nodes": args.leaf_nodes, "max_plies": args.max_plies}
    book = Book(rules, entries, info)
    info["plies"] = _depth(book)
    _write_atomic(out, encode(rules, entries, info))
    print(
        json.dumps(
            {
                "book": str(out),
                "entries": len(entries),
                "plies": info["plies"],
                "seconds": round(time.monotonic() - started, 1),
            }
        )
    )
    return 0


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
