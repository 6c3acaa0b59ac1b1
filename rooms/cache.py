"""A worker's bounded copies of the rooms it works on: text, version, and the decoded room.

The store is the truth (invariant 4); a copy only spares the load before a commit. The service
handles a command on the cached room and commits with ``Store.swap``, whose compare-and-set still
runs in the store: a stale copy is refused, never committed, and the refusal's current room replaces
it. The service's own commits and the bus (rooms.fanout.hub) bring copies forward, so in the steady
state a command costs one round trip.

A cached room is never changed (a command works on ``Room.copy``) and is handed out only to be read.
An entry replaced by a newer text passes its decoded room on as ``base``, so the next decode plays
only the new moves (rooms.protocol.codec). A bus message may leave the archive out when the game
number says it is unchanged; ``offer_head`` restores it from a held copy of the same game, and in
any doubt drops the entry (one more load, never a wrong room). Offers only move an entry forward;
``put`` (a store read) replaces it whatever its version. Least recently used entries leave first.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rooms.backends.store import StoredRoom
from rooms.protocol.codec import encode_room, game_number_of

if TYPE_CHECKING:
    from rooms.room.room import Room

__all__ = ["CachedRoom", "RoomCache"]


@dataclass(slots=True, eq=False)
class CachedRoom:
    """A room at ``version`` as the text ``data``; ``room`` is that text decoded, set once, when a
    command first needs it. ``base``, an earlier room of the same id, is kept until then to decode
    from (rooms.protocol.codec.decode_room) and is never handed out. ``text`` None: the room was
    committed to a store that encodes it only when read (rooms.backends.memory), and ``data``
    encodes it here too only when asked."""

    version: int
    text: str | None
    room: Room | None = None
    base: Room | None = None

    @property
    def data(self) -> str:
        if self.text is None:
            assert self.room is not None, "a cached room without its text has its room"
            self.text = encode_room(self.room)
        return self.text


class RoomCache:
    def __init__(self, size: int = 4096) -> None:
        if size < 0:
            raise ValueError(f"a cache size cannot be negative: {size!r}")
        self._size = size
        self._rooms: OrderedDict[str, CachedRoom] = OrderedDict()
        self.hits = 0
        self.misses = 0
        """Lookups that found a copy / none (a refused swap is counted by the service)."""

    def get(self, room_id: str) -> CachedRoom | None:
        cached = self._rooms.get(room_id)
        if cached is None:
            self.misses += 1
            return None
        self.hits += 1
        self._rooms.move_to_end(room_id)
        return cached

    def offer(
        self, room_id: str, version: int, data: str | None, room: Room | None = None
    ) -> CachedRoom | None:
        """Keep ``data`` (and ``room``, its decoding, when the caller has it) as ``room_id``
        at ``version`` unless a newer copy is held; the copy now held (None when the cache
        holds nothing). ``data`` None: ``room``'s text, encoded only if it is ever asked for."""
        if self._size == 0:
            return None
        held = self._rooms.get(room_id)
        if held is not None and held.version >= version:
            if (
                held.room is None
                and room is not None
                and data is not None
                and _same(held, version, data)
            ):
                held.room = room  # the bus brought this text before the commit's answer
            return held
        base = _base_of(held) if room is None else None
        cached = self._rooms[room_id] = CachedRoom(version, data, room, base)
        self._rooms.move_to_end(room_id)
        if len(self._rooms) > self._size:
            self._rooms.popitem(last=False)
        return cached

    def offer_head(
        self, room_id: str, version: int, head: str, game_number: int
    ) -> CachedRoom | None:
        """``offer`` of a room text given without its archive, which is the unchanged one
        of game ``game_number``: rebuilt from the held copy when that copy is of the same
        game and has an archive; otherwise the held copy (older than ``version``) is
        dropped. The copy now held (None when none)."""
        if self._size == 0:
            return None
        held = self._rooms.get(room_id)
        if held is None or held.version >= version:
            return held
        archive = _archive_of(held, game_number)
        if archive is None:
            del self._rooms[room_id]  # a copy we cannot bring forward: the next command loads
            return None
        return self.offer(room_id, version, f"{head}\n{archive}")

    def put(self, room_id: str, stored: StoredRoom) -> CachedRoom:
        """Keep ``stored``, just read from the store, whatever is held: the store is the
        truth even when it went back (a Redis restarted from an older snapshot). The entry
        now held (a detached one when the cache holds nothing); it keeps the decoded room
        of the copy it replaces when that copy had the same text."""
        held = self._rooms.pop(room_id, None)
        if held is not None and _same(held, stored.version, stored.data):
            room, base = held.room, held.base
        else:
            room, base = None, _base_of(held)
        cached = self.offer(room_id, stored.version, stored.data, room)
        if cached is None:
            return CachedRoom(stored.version, stored.data, room, base if room is None else None)
        if cached.room is None:
            cached.base = base  # the entry just made: ``held`` was taken out first
        return cached

    def drop(self, room_id: str) -> None:
        self._rooms.pop(room_id, None)

    def __len__(self) -> int:
        return len(self._rooms)

    def __contains__(self, room_id: object) -> bool:
        return room_id in self._rooms


def _base_of(held: CachedRoom | None) -> Room | None:
    """The room an entry replacing ``held`` may decode from: the latest one ``held`` had."""
    if held is None:
        return None
    return held.room if held.room is not None else held.base


def _same(held: CachedRoom, version: int, data: str) -> bool:
    return held.version == version and held.data == data


def _archive_of(held: CachedRoom, game_number: int) -> str | None:
    """The archive text of ``held`` if it is of game ``game_number`` and not empty, else
    None. The decoded room knows both whatever its text's format; a text not decoded yet
    tells its game number only in format 2, whose archive is the part after the newline."""
    if held.room is not None:
        if held.room.game_number != game_number or not held.room.games:
            return None
        return held.room.games.text
    if game_number_of(held.data) != game_number:
        return None
    cut = held.data.find("\n")
    return held.data[cut + 1 :] if cut >= 0 else None
