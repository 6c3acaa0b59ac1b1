"""The in-memory Store and Bus (``memory://``): one process, same contract as Redis.

Rooms are kept as the same encoded text (as UTF-8 bytes) a network store keeps, so every
load decodes exactly as it will with Redis. A commit may hand over, instead of the text, what
makes it (``RoomText``: the service's ``encode_room`` of a room nobody changes again): it is
called when the room is first read, so a room that takes many commits between reads is
encoded once, not at each commit. The compare-and-set
commit is a lock-protected check; it publishes on the paired MemoryBus inside the lock, so
bus messages leave in version order. Subscriptions are bounded and drop on overflow: the
bus is a hint, and receivers repair gaps from the store.
"""

from __future__ import annotations

import asyncio
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TypeAlias

from rooms.backends.bus import BufferedSubscription
from rooms.backends.due import DueChange
from rooms.backends.store import StoredRoom, Swapped
from rooms.errors import ErrorCode, RoomError

__all__ = ["MemoryBus", "MemoryStore", "MemorySubscription", "RoomText"]

RoomText: TypeAlias = str | Callable[[], str]
"""A room's text, or what makes it when it is first read (see the module)."""


class MemorySubscription(BufferedSubscription):
    def __init__(self, bus: MemoryBus, room_id: str, buffer: int) -> None:
        super().__init__(room_id, buffer)
        self._bus = bus
        self._scheduled = 0

    async def close(self) -> None:
        self._bus._remove(self)

    def _offer(self, message: str) -> None:
        # The memory store publishes inside its commit: a listener gets the message on the
        # next loop turn, after the committing command's own reply (as over Redis), and no
        # more than ``buffer`` wait for their turn (the bus stays bounded; a gap is repaired).
        if self._listener is None:
            super()._offer(message)
        elif self._scheduled >= self._queue.maxsize:
            self.dropped += 1
        else:
            self._scheduled += 1
            asyncio.get_running_loop().call_soon(self._hand, message)

    def _hand(self, message: str) -> None:
        self._scheduled -= 1
        if self._listener is not None:
            self._listener(message)


class MemoryBus:
    """Channels per room inside one process; ``buffer`` messages per subscription."""

    def __init__(self, *, buffer: int = 1024) -> None:
        self._buffer = buffer
        self._channels: dict[str, set[MemorySubscription]] = {}

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        self._channels.clear()

    def deliver(self, room_id: str, message: str) -> None:
        """Publish without awaiting (the memory store calls this inside its commit)."""
        for subscription in tuple(self._channels.get(room_id, ())):
            subscription._offer(message)

    async def publish(self, room_id: str, message: str) -> None:
        self.deliver(room_id, message)

    async def subscribe(self, room_id: str) -> MemorySubscription:
        subscription = MemorySubscription(self, room_id, self._buffer)
        self._channels.setdefault(room_id, set()).add(subscription)
        return subscription

    def _remove(self, subscription: MemorySubscription) -> None:
        channel = self._channels.get(subscription.room_id)
        if channel is not None:
            channel.discard(subscription)
            if not channel:
                del self._channels[subscription.room_id]

    def subscribers(self, room_id: str) -> int:
        return len(self._channels.get(room_id, ()))


@dataclass(slots=True)
class _Entry:
    version: int
    stored: bytes | Callable[[], str]
    log: deque[bytes]
    expires: float
    created: float = field(default=0.0)

    @property
    def data(self) -> bytes:
        """The room's text as UTF-8, made at the first read after a deferred commit."""
        stored = self.stored
        if not isinstance(stored, bytes):
            stored = self.stored = stored().encode()
        return stored


class MemoryStore:
    """Rooms in a dict. ``room_ttl`` seconds after its last write a room expires;
    ``max_rooms`` bounds memory (create fails with ``unavailable`` when full)."""

    name = "memory"

    def __init__(
        self,
        bus: MemoryBus | None = None,
        *,
        log_size: int = 256,
        room_ttl: float = 24 * 3600.0,
        max_rooms: int = 100_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.bus = bus if bus is not None else MemoryBus()
        self._log_size = log_size
        self._ttl = room_ttl
        self._max_rooms = max_rooms
        self._clock = clock
        self._rooms: dict[str, _Entry] = {}
        self._listed: dict[str, float] = {}  # room id -> creation time
        self._due: dict[str, float] = {}  # room id -> deadline (rooms.backends.due)
        self._players: dict[str, dict[str, None]] = {}  # player id -> room ids, in order
        self._lock = threading.Lock()
        self._closed = False

    async def open(self) -> None:
        self._closed = False

    async def close(self) -> None:
        self._closed = True

    def _check_open(self) -> None:
        if self._closed:
            raise RoomError(ErrorCode.UNAVAILABLE, "the memory store is closed")

    async def ping(self) -> None:
        self._check_open()

    def _live(self, room_id: str, now: float) -> _Entry | None:
        entry = self._rooms.get(room_id)
        if entry is not None and entry.expires <= now:
            del self._rooms[room_id]
            self._listed.pop(room_id, None)
            return None
        return entry

    def _sweep(self, now: float) -> None:
        for room_id in [r for r, e in self._rooms.items() if e.expires <= now]:
            del self._rooms[room_id]
            self._listed.pop(room_id, None)

    async def create(self, room_id: str, data: str, *, listed: bool) -> bool:
        self._check_open()
        with self._lock:
            now = self._clock()
            if self._live(room_id, now) is not None:
                return False
            if len(self._rooms) >= self._max_rooms:
                self._sweep(now)
                if len(self._rooms) >= self._max_rooms:
                    raise RoomError(
                        ErrorCode.UNAVAILABLE,
                        f"the server holds its maximum of {self._max_rooms} rooms; try later",
                    )
            self._rooms[room_id] = _Entry(0, data.encode(), deque(), now + self._ttl, now)
            if listed:
                self._listed[room_id] = now
            return True

    async def load(self, room_id: str) -> StoredRoom | None:
        self._check_open()
        with self._lock:
            entry = self._live(room_id, self._clock())
            return None if entry is None else StoredRoom(entry.version, entry.data.decode())

    async def commit(
        self,
        room_id: str,
        expected: int,
        data: RoomText,
        event: str,
        *,
        listed: bool,
        finished: bool | None = None,  # one ttl for every room here
        archive_unchanged: bool = False,  # the whole text is kept: nothing to save
        publish: bool = True,
        due: DueChange | None = None,
    ) -> bool:
        self._check_open()
        with self._lock:
            now = self._clock()
            entry = self._live(room_id, now)
            if entry is None or entry.version != expected:
                return False
            # may raise: before anything changes, so the commit stays atomic
            encoded_data = data.encode() if isinstance(data, str) else data
            encoded_event = event.encode()
            entry.version = expected + 1
            entry.stored = encoded_data
            entry.log.append(encoded_event)
            while len(entry.log) > self._log_size:
                entry.log.popleft()
            entry.expires = now + self._ttl
            if due is not None:
                entry.expires = now + max(self._ttl, due.keep)
                if due.at is None:
                    self._due.pop(room_id, None)
                else:
                    self._due[room_id] = due.at
                for player_id in due.players:
                    self._players.setdefault(player_id, {})[room_id] = None
            if listed:
                self._listed.setdefault(room_id, entry.created)
            else:
                self._listed.pop(room_id, None)
            if publish:
                self.bus.deliver(room_id, event)
            return True

    async def swap(
        self,
        room_id: str,
        expected: int,
        data: RoomText,
        event: str,
        *,
        listed: bool,
        finished: bool | None = None,
        archive_unchanged: bool = False,
        publish: bool = True,
        due: DueChange | None = None,
    ) -> Swapped:
        """``commit``, then on a refusal the current room. One process: this store's own
        service is the only writer in production and caches what it commits, so the bus
        carries the bare event (a second service on the same store, as tests run, repairs
        its copy from the refusal). Goes through ``commit`` so that a subclass wrapping it
        wraps both."""
        if due is None:  # a subclass wrapping ``commit`` may not know of it
            landed = await self.commit(
                room_id, expected, data, event, listed=listed, publish=publish
            )
        else:
            landed = await self.commit(
                room_id, expected, data, event, listed=listed, publish=publish, due=due
            )
        if landed:
            return Swapped(True)
        return Swapped(False, await self.load(room_id))

    async def events_since(self, room_id: str, version: int) -> list[str] | None:
        self._check_open()
        with self._lock:
            entry = self._live(room_id, self._clock())
            if entry is None or version > entry.version or version < 0:
                return None
            oldest = entry.version - len(entry.log) + 1  # version of the first logged event
            if version + 1 < oldest:
                return None
            start = len(entry.log) - (entry.version - version)
            return [item.decode() for item in list(entry.log)[start:]]

    async def listed(self, limit: int) -> list[StoredRoom]:
        self._check_open()
        with self._lock:
            now = self._clock()
            newest = sorted(self._listed.items(), key=lambda item: item[1], reverse=True)
            found: list[StoredRoom] = []
            for room_id, _ in newest:
                entry = self._live(room_id, now)
                if entry is not None:
                    found.append(StoredRoom(entry.version, entry.data.decode()))
                if len(found) >= limit:
                    break
            return found

    # -- the due index (rooms.backends.due) -----------------------------------------------

    async def due_rooms(self, now: float, limit: int) -> list[tuple[str, float]]:
        self._check_open()
        with self._lock:
            due = sorted((at, room_id) for room_id, at in self._due.items() if at <= now)
            return [(room_id, at) for at, room_id in due[:limit]]

    async def repair_due(self, room_id: str, seen: float, at: float | None) -> bool:
        self._check_open()
        with self._lock:
            if self._due.get(room_id) != seen:
                return False
            if at is None:
                del self._due[room_id]
            else:
                self._due[room_id] = at
            return True

    async def player_rooms(self, player_id: str, limit: int) -> list[str]:
        self._check_open()
        with self._lock:
            return list(self._players.get(player_id, {}))[:limit]

    async def forget_player_room(self, player_id: str, room_id: str) -> None:
        self._check_open()
        with self._lock:
            rooms = self._players.get(player_id)
            if rooms is not None:
                rooms.pop(room_id, None)
                if not rooms:
                    del self._players[player_id]

    def __len__(self) -> int:
        return len(self._rooms)
