"""``tictactoe book build``: prove a book with the solver, its progress shown and saved.

The build (``core.ai.book.BookBuilder``) walks the strategy of the bot moving first, second
or both (--side; one side alone is what a board the first player wins needs). It prints its
progress on stderr and saves it every --save-every-s seconds to --progress (``progress.py``),
and on Ctrl-C or SIGTERM, so that a build stopped continues where it was when run again with
the same side; at the end, or at --stop-after-s, it writes the book file (by default the
shipped one in ``core/ai/book/data/``).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import time
from pathlib import Path
from typing import Any

from core import Game
from core.ai import SearchProgress
from core.ai.book import (
    DEFAULT_LEAF_NODES,
    Book,
    BookBuilder,
    BookSide,
    BuildProgress,
    SideMismatch,
    book_keys,
    encode,
)
from core.ai.book.build import BOT, OPPONENT

from ...ai_flags import fail
from ...rules_flags import add_rules_flags, rules_from_args
from .files import book_depth, shipped_path, write_atomic
from .progress import read_progress, save_progress

__all__ = ["register", "run_build"]


def register(commands: Any) -> None:
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
        "--side",
        choices=[side.value for side in BookSide],
        default=BookSide.BOTH.value,
        help="whose strategy to build: the bot moving first, second, or both (default both; "
        "a board the first player wins, such as Connect Four 7×6, needs only first)",
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


def run_build(args: argparse.Namespace) -> int:
    rules = rules_from_args(args)
    if args.leaf_nodes < 1:
        fail(f"--leaf-nodes must be 1 or more, got {args.leaf_nodes}")
    out = args.out or shipped_path(rules)
    progress_path = args.progress or out.with_name(out.name + ".progress")
    for folder in {out.parent, progress_path.parent}:
        folder.mkdir(parents=True, exist_ok=True)
    side = BookSide(args.side)
    resume = read_progress(progress_path, rules, args.leaf_nodes)
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
            save_progress(progress_path, rules, args.leaf_nodes, builder.snapshot())

    def searching(progress: SearchProgress) -> None:
        if progress.seconds >= 5 and int(progress.seconds) % 10 == 0:
            print(
                f"book: a long proof: {progress.nodes:,} nodes, {progress.seconds:.0f} s",
                file=sys.stderr,
                flush=True,
            )

    try:
        builder = BookBuilder(
            rules,
            side=side,
            leaf_nodes=args.leaf_nodes,
            max_plies=args.max_plies,
            resume=resume,
            on_progress=report,
            on_search=searching,
        )
    except SideMismatch as exc:
        fail(f"{progress_path}: {exc}: give --side {exc.saved.value}, or another --progress")
    if resume is not None and (resume.done or resume.proven):
        print(
            f"book: resuming from {progress_path} (side {resume.side.value}): "
            f"{len(resume.done):,} positions done, {len(resume.proven):,} proven on the way",
            file=sys.stderr,
            flush=True,
        )
    previous = signal.signal(signal.SIGTERM, _interrupt)  # a kill saves the progress too
    started = time.monotonic()
    complete = False
    try:
        builder.build()
        complete = True
    except KeyboardInterrupt:
        save_progress(progress_path, rules, args.leaf_nodes, builder.snapshot())
        print(f"book: stopped; progress saved to {progress_path}", file=sys.stderr)
        return 130
    except _TimeUp:
        print(f"book: --stop-after-s reached; progress saved to {progress_path}", file=sys.stderr)
    finally:
        signal.signal(signal.SIGTERM, previous)
    save_progress(progress_path, rules, args.leaf_nodes, builder.snapshot())
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
    snapshot = builder.snapshot()
    entries = {**snapshot.proven, **snapshot.done}
    root, _ = book_keys(builder.rules).key(Game(builder.rules).board.cells)
    root_roles = snapshot.roles.get(root, 0)
    info: dict[str, Any] = {
        "side": snapshot.side.value,  # the strategies built (or being built, when incomplete)
        "leaf_nodes": args.leaf_nodes,
        "max_plies": args.max_plies,
        "complete": complete,
        # which side's strategy (the bot moving first, second) is in the book to its leaves
        "strategies": {"first": bool(root_roles & BOT), "second": bool(root_roles & OPPONENT)},
        "proven_by": "tictactoe's solver (core.ai.solver)",
    }
    book = Book(builder.rules, entries, info)
    info["plies"] = book_depth(book)
    write_atomic(out, encode(builder.rules, entries, info))
    return Book(builder.rules, entries, info)
