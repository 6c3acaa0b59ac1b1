"""The Store seam: where rooms live. The store is the truth (design.md, invariant 4).

A store keeps, per room, the encoded room (``rooms.codec`` text), its version, and a
bounded log of the encoded events of the last changes. ``commit`` is the one write after
creation and is a single atomic step, so that a Redis store can run it as ONE Lua script
round trip:

1. compare the stored version with ``expected`` (refuse when it moved: compare-and-set);
2. write the new room text at version ``expected + 1``;
3. append the event text to the room's log, trimmed to the newest ``log_size`` events;
4. add the room to, or remove it from, the public listing (``listed``);
5. publish the event text on the room's bus channel.

Every version after 0 has exactly one event, so the log needs no per-entry version: its
last entry is the current version's event.

``swap`` is the commit the service uses (rooms.cache): the same atomic step, but a refusal
answers with the room as it is stored now, in the same round trip, so a worker that
worked from a stale cached copy re-validates without a separate load; and a network store
publishes the new room text along with the event (``framed``), so every worker listening
to the room keeps its cached copy current. Receivers strip the room text (rooms.hub):
clients only ever see the event.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["FRAME", "Store", "StoredRoom", "Swapped", "framed", "unframe"]


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


def framed(version: int, event: str, data: str) -> str:
    """``#<version>\n<event>\n<room text>``: compact JSON never holds a raw newline (it
    escapes them), so two splits take the message apart again."""
    return f"{FRAME}{version}\n{event}\n{data}"


def unframe(message: str) -> tuple[int, str, str] | None:
    """(version, event text, room text) of a framed message; None if it is not one."""
    if not message.startswith(FRAME):
        return None
    head, _, rest = message.partition("\n")
    event, newline, data = rest.partition("\n")
    try:
        version = int(head[1:])
    except ValueError:
        return None
    return (version, event, data) if newline and version > 0 else None


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
        self, room_id: str, expected: int, data: str, event: str, *, listed: bool,
        finished: bool | None = None,
    ) -> bool:
        """Atomically: if the stored version is ``expected``, write ``data`` as version
        ``expected + 1``, append ``event`` to the bounded log, update the listing and publish
        ``event``; True. Otherwise change nothing and return False. ``finished``: whether
        the room's game is over now (a store may keep finished rooms for a shorter time);
        None lets the store read it from the event's ``status``, if it has one."""

    async def swap(
        self, room_id: str, expected: int, data: str, event: str, *, listed: bool,
        finished: bool | None = None,
    ) -> Swapped:
        """``commit``, answering a refusal with the current room (see the module's doc). A
        network store publishes ``framed(expected + 1, event, data)`` instead of the bare
        event; the log keeps the bare event either way."""

    async def events_since(self, room_id: str, version: int) -> list[str] | None:
        """The event texts of versions ``version + 1`` up to the current one, oldest first
        (``[]`` when ``version`` is current); None when the log no longer reaches back that
        far, the version is ahead of the room, or there is no such room."""

    async def listed(self, limit: int) -> list[StoredRoom]:
        """Up to ``limit`` listed (public, unfinished) rooms, the most recently created first."""
