"""A room's earlier finished games: an immutable value that keeps its stored JSON text.

A long rematch series fills the archive with up to ``KEEP_GAMES`` records (about 700 bytes
each, 33 KB at 50), which change once a game while every command of the game encodes the
room and every text from the bus is decoded. So the archive travels as the JSON array it
was stored as (rooms.codec writes it as is, after the rest of the room) and is parsed only
when someone reads the records (a snapshot, a text record, the next archived game), at
most once per value; a new game gives a new value, whose text is the old one with the
record spliced in (or the records encoded again once the oldest must go). Copies of a room
share it (``Room.copy``).

A stored archive is checked cheaply when the room is decoded (a JSON array's brackets)
and completely when it is first parsed: a corrupted one is then refused with
RoomError(internal_error), as a corrupted room is.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .errors import ErrorCode, RoomError
from .jsontext import dumps, loads

__all__ = ["EMPTY", "Archive"]

Record = dict[str, Any]


class Archive:
    """Records (rooms.record.archive), oldest first, read as a sequence: ``len``,
    iteration, indexing. Never changed once made; the records must not be changed either."""

    __slots__ = ("_records", "_text")

    def __init__(self, text: str | None, records: tuple[Record, ...] | None = None) -> None:
        assert text is not None or records is not None
        self._text = text
        self._records = records

    @classmethod
    def stored(cls, text: str) -> Archive:
        """The archive part of a stored room, unparsed; ValueError if it cannot be an array
        (the whole check comes when it is parsed)."""
        if not (text.startswith("[") and text.endswith("]")):
            raise ValueError(f"stored games are not a JSON array: {text[:20]!r}")
        return cls(text)

    @classmethod
    def of(cls, records: object) -> Archive:
        """Records already parsed (a room stored with them inline, format 1)."""
        return cls(None, _checked(records))

    @property
    def text(self) -> str:
        """The records as one compact JSON array (what the store keeps)."""
        if self._text is None:
            assert self._records is not None
            self._text = dumps(list(self._records))
        return self._text

    @property
    def records(self) -> tuple[Record, ...]:
        """The records, parsed from the text the first time they are needed."""
        if self._records is None:
            assert self._text is not None
            try:
                self._records = _checked(loads(self._text))
            except ValueError as exc:
                raise RoomError(
                    ErrorCode.INTERNAL_ERROR, f"stored games cannot be decoded: {exc}"
                ) from exc
        return self._records

    def appended(self, record: Record, keep: int) -> Archive:
        """This archive with ``record`` last, keeping the ``keep`` newest records."""
        records = (*self.records, record)
        if len(records) > keep:  # the oldest goes: encoded again when the room is
            return Archive(None, records[-keep:])
        text = self.text
        spliced = f"{text[:-1]}{',' if len(records) > 1 else ''}{dumps(record)}]"
        return Archive(spliced, records)

    def __len__(self) -> int:
        return len(self.records)

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records)

    def __getitem__(self, index: int) -> Record:
        return self.records[index]

    def __bool__(self) -> bool:
        return bool(self._records) if self._records is not None else self.text != "[]"

    def __repr__(self) -> str:
        parsed = "parsed" if self._records is not None else "unparsed"
        return f"<Archive {len(self.text)} chars, {parsed}>"


def _checked(records: object) -> tuple[Record, ...]:
    if not isinstance(records, list) or not all(isinstance(r, dict) for r in records):
        raise ValueError("stored games are not a list of records")
    return tuple(records)


EMPTY = Archive("[]", ())
"""No games yet (a new room)."""
