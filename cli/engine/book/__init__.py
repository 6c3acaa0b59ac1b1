"""``tictactoe book``: build, show and check the opening books the perfect bot plays from.

``book build`` proves a book with the project's solver (``core.ai.book.BookBuilder``),
printing its progress on stderr and saving it every --save-every-s seconds to --progress, so
that a build stopped (Ctrl-C, a crash) continues where it was when run again; at the end it
writes the book file (by default the shipped one in ``core/ai/book/data/``). ``book show``
prints a book's header and how deep it reaches; ``book check`` re-proves sampled entries
with the solver; ``book add`` puts in a line of a result proven elsewhere.

build (and its progress file, ``progress``) ← files (reading and writing book files) →
add, inspection (show and check): each action module adds its own parser here.
"""

from __future__ import annotations

from typing import Any

from . import add, build, inspection

__all__ = ["register"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "book",
        help="build, show or check an opening book (proven values for the perfect bot)",
        description="Opening books: the proven value and a value-keeping move of every "
        "position the perfect bot can meet before its live search proves in time.",
    )
    commands = parser.add_subparsers(dest="book_command", metavar="ACTION", required=True)
    build.register(commands)
    add.register(commands)
    inspection.register(commands)
