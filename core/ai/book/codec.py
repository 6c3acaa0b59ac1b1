"""The book file: a JSON header line, then the zlib-compressed, key-sorted records.

    tictactoe-book <version>\\n
    {"rules": {...}, "entries": n, "key_bytes": b, "plies": [lo, hi], "sha256": "...", ...}\\n
    <zlib body>

A record is the key (``key_bytes`` little-endian: two bits a cell, the cell's mark code),
one byte for the value for the side to move (0 loss, 1 draw, 2 win) and one byte for a move
that keeps it (a cell index of the keyed image). ``sha256`` is the digest of the compressed
body; ``decode`` checks the magic line, the version, the digest, the rules and the record
count, and raises ``BadBook`` on any mismatch, so a damaged or foreign file is never read
as proofs.
"""

from __future__ import annotations

import hashlib
import json
import zlib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ...errors import GameError
from ...rules import Rules

__all__ = ["FORMAT_VERSION", "BadBook", "BookData", "decode", "encode", "pack", "unpack"]

FORMAT_VERSION = 1
MAGIC = b"tictactoe-book"


class BadBook(GameError):
    """A book file that is damaged, of another version, or for other rules."""

    code = "bad_book"


def pack(value: int, move: int) -> int:
    """One int for an entry: ``value`` (-1, 0, 1 for the side to move) and its ``move``."""
    return move << 2 | (value + 1)


def unpack(entry: int) -> tuple[int, int]:
    """(value, move) of a packed entry."""
    return (entry & 3) - 1, entry >> 2


@dataclass(frozen=True, slots=True)
class BookData:
    """A decoded book: its rules, packed entries by key, and the header's other facts."""

    rules: Rules
    entries: dict[int, int]
    info: dict[str, Any]


def encode(rules: Rules, entries: Mapping[int, int], info: Mapping[str, Any]) -> bytes:
    key_bytes = -(-2 * rules.cells // 8)
    body = bytearray()
    for key in sorted(entries):
        value, move = unpack(entries[key])
        body += key.to_bytes(key_bytes, "little")
        body += bytes((value + 1, move))
    compressed = zlib.compress(bytes(body), 9)
    header = {
        **info,
        "rules": rules.to_dict(),
        "entries": len(entries),
        "key_bytes": key_bytes,
        "sha256": hashlib.sha256(compressed).hexdigest(),
    }
    line = json.dumps(header, sort_keys=True, ensure_ascii=False).encode()
    return b"%s %d\n%s\n%s" % (MAGIC, FORMAT_VERSION, line, compressed)


def decode(data: bytes, rules: Rules | None = None) -> BookData:
    """The book in ``data``; ``rules``, when given, must be the book's."""
    magic, _, rest = data.partition(b"\n")
    name, _, version = magic.partition(b" ")
    if name != MAGIC:
        raise BadBook(f"not a book file (it starts {magic[:20]!r})")
    if version != str(FORMAT_VERSION).encode():
        raise BadBook(
            f"book format version {version.decode(errors='replace')!r}; "
            f"this program reads version {FORMAT_VERSION}"
        )
    line, _, compressed = rest.partition(b"\n")
    try:
        header = json.loads(line)
        book_rules = Rules.from_dict(header["rules"])
        count, key_bytes, digest = header["entries"], header["key_bytes"], header["sha256"]
    except (ValueError, KeyError, TypeError) as exc:
        raise BadBook(f"the book's header is damaged: {exc}") from exc
    if rules is not None and book_rules != rules:
        raise BadBook(f"the book is for {book_rules.describe()}, not {rules.describe()}")
    if hashlib.sha256(compressed).hexdigest() != digest:
        raise BadBook("the book's checksum does not match its contents")
    try:
        body = zlib.decompress(compressed)
    except zlib.error as exc:
        raise BadBook(f"the book's body is damaged: {exc}") from exc
    size = key_bytes + 2
    if len(body) != count * size:
        raise BadBook(f"the book holds {len(body) // size} records, its header says {count}")
    entries = {}
    for start in range(0, len(body), size):
        key = int.from_bytes(body[start : start + key_bytes], "little")
        entries[key] = pack(body[start + key_bytes] - 1, body[start + key_bytes + 1])
    info = {k: v for k, v in header.items() if k not in ("rules", "entries", "key_bytes")}
    return BookData(book_rules, entries, info)
