"""A worker's index of rooms changed in the same step as a room's commit.

A worker indexes a room (rooms.backends.registry) before it records a connection there and
unindexes it after the last one left, so the sweep of a dead worker visits every room where it
may hold a connection. When the registry lives in the store's own Redis (one server, not a
Cluster, where index and room sit on different slots: ``Registry.folds_into``) the change rides
on the commit instead (rooms.backends.redis.scripts): one round trip instead of two, and index
and room change together or not at all.

- ``add``: the commit that records the connection indexes the room, and is refused, nothing
  written, when the worker's lease is gone (``NotIndexed``), as ``add_room`` is;
- not ``add``: the commit that records the last departure unindexes the room.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from rooms.backends.store import Store, Swapped
from rooms.errors import ErrorCode, RoomError

__all__ = ["IndexChange", "IndexingStore", "NotIndexed"]


@dataclass(frozen=True, slots=True)
class IndexChange:
    """Index (``add``) or unindex ``room_id`` under the worker whose lease and index are
    ``keys`` (as the registry names them); the index lives ``keep_ms`` past a change."""

    add: bool
    keys: tuple[str, str]
    room_id: str
    keep_ms: int


class NotIndexed(RoomError):
    """A commit that was to index its room was refused: the worker's lease is gone, and
    nothing was written (the caller takes a new lease: rooms.presence.lease)."""

    def __init__(self) -> None:
        super().__init__(
            ErrorCode.UNAVAILABLE, "this server's presence lease is gone; nothing was recorded"
        )


class IndexingStore(Store, Protocol):
    """A store whose ``swap`` can carry an index change (the Redis store on one server)."""

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
        index: IndexChange | None = None,
    ) -> Swapped: ...
