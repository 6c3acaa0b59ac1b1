"""The Store seam: where rooms live. The store is the truth (design.md, invariant 4).

A store keeps, per room, the encoded room (rooms.protocol.codec), its version and a bounded log
of the last changes' events. ``commit``, the one write after creation, is a single atomic step
(one Lua script round trip in Redis): compare the stored version with ``expected``, write
version ``expected + 1``, append the event to the log trimmed to ``log_size``, update the public
listing, publish the event. Every version after 0 has exactly one event, so the log's last entry
is the current version's event.

``swap``, the commit the service uses, answers a refusal with the stored room in the same round
trip, so a stale cached copy (rooms.cache) is re-validated without a load; a network store also
publishes the new room text with the event (``framed``) so listening workers keep their copies
current, and receivers strip it before clients see the event. With ``archive_unchanged`` a
network store sends and publishes only the room's first part (``framed_head``, tagged with the
game number), sparing the archive that only changes with a new game; ``load``, a refusal and the
memory store always answer the whole text as written.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["FRAME", "Frame", "Store", "StoredRoom", "Swapped", "framed", "framed_head", "unframe"]


@dataclass(frozen=True, slots=True)
class StoredRoom:
    version: int
    data: str


@dataclass(frozen=True, slots=True)
class Swapped:
    """What ``swap`` did: committed, or refused with the room as stored now (``current``
    None: there is no such room, or it was lost)."""

    committed: bool
    current: StoredRoom | None = None


FRAME = "#"
"""The first character of a bus message that carries a room with its event. An event is a
JSON object (``{``) and so is a chat line, so the two never mix up."""


@dataclass(frozen=True, slots=True)
class Frame:
    """A framed bus message taken apart: the event of ``version`` and the room text."""

    version: int
    event: str
    data: str
    archive_of: int | None = None
    """None: ``data`` is the whole room text. A game number: ``data`` is the room's first
    part alone (its JSON object), and its archive is the one the room had in that game,
    left out because it did not change (the receiver adds the copy it holds, if any)."""


def framed(version: int, event: str, data: str) -> str:
    """``#<version>\n<event>\n<room text>``: compact JSON never holds a raw newline (it
    escapes them), so two splits take the message apart again (the room text's own
    newlines come after them)."""
    return f"{FRAME}{version}\n{event}\n{data}"


def framed_head(version: int, game_number: int, event: str, head: str) -> str:
    """``#<version>/<game_number>\n<event>\n<head>``: the room's first part alone, its
    archive being the unchanged one of game ``game_number`` (the Redis commit script
    writes the same, rooms.backends.redis.scripts)."""
    return f"{FRAME}{version}/{game_number}\n{event}\n{head}"


def unframe(message: str) -> Frame | None:
    """The parts of a framed message (either form); None if it is not one. A worker of a
    version before ``framed_head`` refuses that form as malformed (docs/operations.md)."""
    if not message.startswith(FRAME):
        return None
    head, _, rest = message.partition("\n")
    event, newline, data = rest.partition("\n")
    number, slash, game = head[1:].partition("/")
    try:
        version = int(number)
        archive_of = int(game) if slash else None
    except ValueError:
        return None
    if not newline or version <= 0 or (archive_of is not None and archive_of <= 0):
        return None
    return Frame(version, event, data, archive_of)


class Store(Protocol):
    name: str
    """The backend's name (``memory``, ``redis``), shown by /readyz."""

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def ping(self) -> None:
        """Return when the store answers; raise RoomError(unavailable) when it does not."""

    async def create(self, room_id: str, data: str, *, listed: bool) -> bool:
        """Store a new room at version 0; False (nothing written) if the id is taken."""

    async def load(self, room_id: str) -> StoredRoom | None:
        """The room's current text and version, or None when there is no such room."""

    async def commit(
        self,
        room_id: str,
        expected: int,
        data: str,
        event: str,
        *,
        listed: bool,
        finished: bool | None = None,
        archive_unchanged: bool = False,
    ) -> bool:
        """Atomically: if the stored version is ``expected``, write ``data`` as version
        ``expected + 1``, append ``event`` to the bounded log, update the listing, publish
        ``event`` and return True; otherwise change nothing and return False. ``finished``:
        whether the game is over now (a store may keep finished rooms for a shorter time); None
        reads it from the event's ``status``. ``archive_unchanged``: the caller vouches that
        ``data``'s archive is the one stored at ``expected``, so a network store need not send
        it again; False is always correct."""

    async def swap(
        self,
        room_id: str,
        expected: int,
        data: str,
        event: str,
        *,
        listed: bool,
        finished: bool | None = None,
        archive_unchanged: bool = False,
        publish: bool = True,
    ) -> Swapped:
        """``commit``, answering a refusal with the current room (see the module's doc). A
        network store publishes ``framed(expected + 1, event, data)`` instead of the bare
        event, or ``framed_head`` when the archive is unchanged; the log keeps the bare
        event either way. ``publish`` False: the caller's worker delivers the event to its own
        listeners and no other worker holds any (rooms.service), so nothing is published."""

    async def events_since(self, room_id: str, version: int) -> list[str] | None:
        """The event texts of versions ``version + 1`` up to the current one, oldest first
        (``[]`` when ``version`` is current); None when the log no longer reaches back that
        far, the version is ahead of the room, or there is no such room."""

    async def listed(self, limit: int) -> list[StoredRoom]:
        """Up to ``limit`` listed (public, unfinished) rooms, the most recently created first.
        A network store may answer a room's text without its archive (the listing does not
        show earlier games)."""
