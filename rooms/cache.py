"""A worker's copies of the rooms it works on: the encoded room and its version, bounded.

The store is the truth (invariant 4); this is only a guess of it that saves the load
before a commit. The service handles a command on the cached room and commits with
``Store.swap``: the compare-and-set still runs in the store, so a stale copy can never
land a wrong commit; it is refused, and the refusal carries the current room, which
replaces the copy for the retry. Copies are brought forward by the service's own commits
and by the bus (rooms.hub hands over the room text of every framed event), so for a room
this worker listens to, the copy is current in the steady state and a command costs one
round trip.

Offers only move an entry forward: an older version (a bus message that lost a race with
the worker's own commit) is ignored; what the store answered replaces the entry whatever
its version. Least recently used entries leave first.
"""

from __future__ import annotations

from collections import OrderedDict

from .store import StoredRoom

__all__ = ["RoomCache"]


class RoomCache:
    def __init__(self, size: int = 4096) -> None:
        if size < 0:
            raise ValueError(f"a cache size cannot be negative: {size!r}")
        self._size = size
        self._rooms: OrderedDict[str, StoredRoom] = OrderedDict()
        self.hits = 0
        self.misses = 0
        """Lookups that found a copy / none (a refused swap is counted by the service)."""

    def get(self, room_id: str) -> StoredRoom | None:
        stored = self._rooms.get(room_id)
        if stored is None:
            self.misses += 1
            return None
        self.hits += 1
        self._rooms.move_to_end(room_id)
        return stored

    def offer(self, room_id: str, version: int, data: str) -> StoredRoom | None:
        """Keep ``data`` as ``room_id`` at ``version`` unless a newer copy is held; the
        copy now held (None when the cache holds nothing)."""
        if self._size == 0:
            return None
        held = self._rooms.get(room_id)
        if held is not None and held.version >= version:
            return held
        stored = self._rooms[room_id] = StoredRoom(version, data)
        self._rooms.move_to_end(room_id)
        if len(self._rooms) > self._size:
            self._rooms.popitem(last=False)
        return stored

    def put(self, room_id: str, stored: StoredRoom) -> None:
        """Keep ``stored``, just read from the store, whatever is held: the store is the
        truth even when it went back (a Redis restarted from an older snapshot)."""
        self._rooms.pop(room_id, None)
        self.offer(room_id, stored.version, stored.data)

    def drop(self, room_id: str) -> None:
        self._rooms.pop(room_id, None)

    def __len__(self) -> int:
        return len(self._rooms)

    def __contains__(self, room_id: object) -> bool:
        return room_id in self._rooms
