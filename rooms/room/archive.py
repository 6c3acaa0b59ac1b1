"""A room's earlier finished games: an immutable value that keeps its stored JSON text.

The archive (up to ``KEEP_GAMES`` records) changes once a game, while every command encodes the
room and every bus text is decoded, so it travels as the text it was stored as (written as is by
rooms.protocol.codec) and is parsed at most once per value, when the records are read (a
snapshot, a text record, a join's check). Copies of a room share it.

The text holds one record per line, the closing bracket on a line of its own::

    [<record>,
    <record>
    ]

That is still one JSON array, and compact JSON never holds a raw newline, so the text is its own
index: records are counted by newlines, a new game is spliced in before the last line and the
oldest is cut at the first newline, all without parsing. No games is ``[]``. A text stored with
plain commas on one line (older workers) still reads, and is rewritten one per line by the first
game added. Decoding checks only the brackets; the first parse checks everything and raises
RoomError(internal_error) on corruption, so a corrupted archive is refused whenever its records
are read (a join checks before it commits, rooms.room.seating).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from rooms.common.jsontext import dumps, loads
from rooms.errors import ErrorCode, RoomError

__all__ = ["EMPTY", "Archive"]

Record = dict[str, Any]

_SEPARATOR = ",\n"
"""Between two records of a text written one record per line."""
_END = "\n]"
"""How a non-empty text written one record per line ends (plain commas never do)."""


class Archive:
    """Records (rooms.room.record.archive), oldest first, read as a sequence: ``len``,
    iteration, indexing. Never changed once made; the records must not be changed either."""

    __slots__ = ("_count", "_records", "_text")

    def __init__(
        self, text: str | None, records: tuple[Record, ...] | None = None, count: int | None = None
    ) -> None:
        assert text is not None or records is not None
        self._text = text
        self._records = records
        self._count = count  # counted from the text's lines when first needed

    @classmethod
    def stored(cls, text: str) -> Archive:
        """The archive part of a stored room, unparsed and uncounted; ValueError if it
        cannot be an array (the whole check comes when it is parsed)."""
        if not (text.startswith("[") and text.endswith("]")):
            raise ValueError(f"stored games are not a JSON array: {text[:20]!r}")
        return cls(text)

    @classmethod
    def of(cls, records: object) -> Archive:
        """Records already parsed (a room stored with them inline, format 1)."""
        checked = _checked(records)
        return cls(None, checked, len(checked))

    @property
    def text(self) -> str:
        """The records as one JSON array, one record per line (what the store keeps); a
        text stored with plain commas stays as it was until a game is added."""
        if self._text is None:
            assert self._records is not None
            self._text = _joined([dumps(record) for record in self._records])
        return self._text

    @property
    def records(self) -> tuple[Record, ...]:
        """The records, parsed from the text the first time they are needed (and, when
        the text is one record per line, checked to be one per line)."""
        if self._records is None:
            assert self._text is not None
            try:
                records = _checked(loads(self._text))
                lines = self._lines()
                if lines is not None and len(records) != lines:
                    raise ValueError(f"{len(records)} records on {lines} lines")
            except ValueError as exc:
                raise RoomError(
                    ErrorCode.INTERNAL_ERROR, f"stored games cannot be decoded: {exc}"
                ) from exc
            self._records = records
        return self._records

    def _lines(self) -> int | None:
        """How many records the text holds, by its lines (never parsed); None for a text
        stored with plain commas that was not parsed yet."""
        if self._count is None:
            text = self.text
            if text == "[]":
                self._count = 0
            elif text.endswith(_END):
                self._count = text.count("\n")
            elif self._records is not None:
                self._count = len(self._records)
        return self._count

    def appended(self, record: Record, keep: int) -> Archive:
        """This archive with ``record`` last, keeping the ``keep`` newest records (at least
        one). Spliced into the text without parsing it, unless the text is one stored with
        plain commas: that one is parsed (RoomError if corrupted) and written one per line."""
        assert keep >= 1
        line = dumps(record)
        assert "\n" not in line  # compact JSON escapes newlines
        text = self.text
        if not (text == "[]" or text.endswith(_END)):  # plain commas: parsed, rewritten
            last = (*self.records, record)[-keep:]
            return Archive(_joined([dumps(r) for r in last[:-1]] + [line]), last, len(last))
        held = self._lines()
        assert held is not None
        drop = held + 1 - keep  # how many of the oldest go (one, once the archive is full)
        if held == 0 or drop >= held:  # nothing held, or nothing of it kept
            spliced = f"[{line}{_END}"
        elif drop > 0:  # cut the text up to the end of the drop-th line
            cut = -1
            for _ in range(drop):
                cut = text.index("\n", cut + 1)
            spliced = f"[{text[cut + 1 : -2]}{_SEPARATOR}{line}{_END}"
        else:
            spliced = f"{text[:-2]}{_SEPARATOR}{line}{_END}"
        kept = min(held + 1, keep)
        records = self._records
        return Archive(spliced, None if records is None else (*records, record)[-kept:], kept)

    def __len__(self) -> int:
        lines = self._lines()
        return lines if lines is not None else len(self.records)

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records)

    def __getitem__(self, index: int) -> Record:
        return self.records[index]

    def __bool__(self) -> bool:
        if self._count is not None:
            return self._count > 0
        return bool(self._records) if self._records is not None else self.text != "[]"

    def __repr__(self) -> str:
        parsed = "parsed" if self._records is not None else "unparsed"
        return f"<Archive {len(self.text)} chars, {parsed}>"


def _joined(lines: list[str]) -> str:
    """The array text of records already encoded, one per line."""
    return f"[{_SEPARATOR.join(lines)}{_END}" if lines else "[]"


def _checked(records: object) -> tuple[Record, ...]:
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise ValueError("stored games are not a list of records")
    return tuple(records)


EMPTY = Archive("[]", (), 0)
"""No games yet (a new room)."""
