"""The presence registry: which workers are alive, and where each holds connections.

Each worker has a **lease** (``ttl`` seconds unless its heartbeat renews it), is listed in the
**registry** (the set others scan), and keeps an **index** of the rooms where it holds
connections (written before a join commits and erased after its last departure there, or by
those commits when the registry lives in the store's Redis: rooms.backends.index). A worker
whose lease is gone is dead for good: never renewed nor re-created, its index never grows again.
Any live worker may then **claim** its cleanup; one holds the claim at a time (it expires, so a
dead claimer is replaced), and only the holder may **finish** it.

Every operation is one atomic step per key group (on Redis a worker's keys share one hash tag,
so each step is one command or single-slot script, Cluster included; the registry set is touched
key by key). ``MemoryRegistry`` keeps the same contract in one process behind a lock, with an
injectable clock.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from rooms.backends.index import IndexChange
from rooms.backends.store import Store
from rooms.errors import ErrorCode, RoomError

__all__ = ["MemoryRegistry", "Registry"]


class Registry(Protocol):
    name: str

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def register(self, worker: str, ttl: float, *, holder: str) -> None:
        """List a NEW worker id and give it a lease of ``ttl`` seconds (``holder``: who it
        is, for operators: host and pid)."""

    async def renew(self, worker: str, ttl: float) -> bool:
        """Extend the lease to ``ttl`` seconds from now; False when it is gone (expired or
        released), and then it stays gone."""

    async def release(self, worker: str) -> None:
        """Drop the lease now (a clean shutdown, or a lease given up): its cleanup may be
        claimed at once."""

    async def add_room(self, worker: str, room_id: str) -> bool:
        """Index ``room_id`` under ``worker``; False (nothing indexed) when its lease is
        gone, so a dead worker's index only ever shrinks."""

    async def remove_room(self, worker: str, room_id: str) -> None: ...

    def folds_into(self, store: Store) -> bool:
        """Whether index changes can ride on ``store``'s commits (``index_change``,
        rooms.backends.index) instead of ``add_room``/``remove_room`` apart."""

    def index_change(self, worker: str, room_id: str, *, add: bool) -> IndexChange:
        """The change for a commit of a store this registry ``folds_into`` to carry."""

    async def scan(self, cursor: int, count: int) -> tuple[int, list[str]]:
        """About ``count`` listed workers from ``cursor`` (0: from the start) and the cursor
        to continue from (0: a full pass is done). A worker listed for the whole pass is
        returned at least once; one may be returned twice."""

    async def claim(self, worker: str, claimer: str, ttl: float) -> bool:
        """Atomically: if ``worker``'s lease is gone and its cleanup is unclaimed (or
        claimed by ``claimer``), claim it (again) for ``ttl`` seconds; True. Else False."""

    async def rooms(self, worker: str, count: int) -> list[str]:
        """Up to ``count`` rooms of ``worker``'s index."""

    async def finish(self, worker: str, claimer: str) -> bool:
        """Forget ``worker`` (registry entry, index, claim) if ``claimer`` holds its claim
        and its index is empty; True when forgotten."""

    async def holder(self, worker: str) -> str | None:
        """Who holds ``worker``'s lease (None: the lease is gone)."""


@dataclass(slots=True)
class _Worker:
    holder: str
    expires: float | None  # None: the lease is gone
    rooms: set[str] = field(default_factory=set)
    claim: tuple[str, float] | None = None  # claimer, until


class MemoryRegistry:
    """The registry of one process (``memory://``); shared by every Presence given it."""

    name = "memory"

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._workers: dict[str, _Worker] = {}  # insertion order: scan order
        self._lock = threading.Lock()
        self._closed = False

    async def open(self) -> None:
        self._closed = False

    async def close(self) -> None:
        self._closed = True

    def _check_open(self) -> None:
        if self._closed:
            raise RoomError(ErrorCode.UNAVAILABLE, "the presence registry is closed")

    def _alive(self, entry: _Worker | None, now: float) -> bool:
        if entry is None or entry.expires is None:
            return False
        if entry.expires <= now:
            entry.expires = None  # expired leases stay expired, as a Redis key does
            return False
        return True

    async def register(self, worker: str, ttl: float, *, holder: str) -> None:
        self._check_open()
        with self._lock:
            if worker in self._workers:
                raise RoomError(ErrorCode.INTERNAL_ERROR, f"worker id {worker!r} is taken")
            self._workers[worker] = _Worker(holder, self._clock() + ttl)

    async def renew(self, worker: str, ttl: float) -> bool:
        self._check_open()
        with self._lock:
            now = self._clock()
            entry = self._workers.get(worker)
            if entry is None or not self._alive(entry, now):
                return False
            entry.expires = now + ttl
            return True

    async def release(self, worker: str) -> None:
        self._check_open()
        with self._lock:
            entry = self._workers.get(worker)
            if entry is not None:
                entry.expires = None

    async def add_room(self, worker: str, room_id: str) -> bool:
        self._check_open()
        with self._lock:
            entry = self._workers.get(worker)
            if entry is None or not self._alive(entry, self._clock()):
                return False
            entry.rooms.add(room_id)
            return True

    async def remove_room(self, worker: str, room_id: str) -> None:
        self._check_open()
        with self._lock:
            entry = self._workers.get(worker)
            if entry is not None:
                entry.rooms.discard(room_id)

    def folds_into(self, store: Store) -> bool:
        return False  # no round trip to save: indexed apart, as the contract tests check

    def index_change(self, worker: str, room_id: str, *, add: bool) -> IndexChange:
        raise TypeError("the memory registry's index changes never ride on a commit")

    async def scan(self, cursor: int, count: int) -> tuple[int, list[str]]:
        self._check_open()
        with self._lock:
            listed = list(self._workers)
        chunk = listed[cursor : cursor + max(1, count)]
        after = cursor + len(chunk)
        return (after if after < len(listed) else 0), chunk

    async def claim(self, worker: str, claimer: str, ttl: float) -> bool:
        self._check_open()
        with self._lock:
            now = self._clock()
            entry = self._workers.get(worker)
            if entry is None or self._alive(entry, now):
                return False
            if entry.claim is not None and entry.claim[1] > now and entry.claim[0] != claimer:
                return False
            entry.claim = (claimer, now + ttl)
            return True

    async def rooms(self, worker: str, count: int) -> list[str]:
        self._check_open()
        with self._lock:
            entry = self._workers.get(worker)
            return sorted(entry.rooms)[:count] if entry is not None else []

    async def finish(self, worker: str, claimer: str) -> bool:
        self._check_open()
        with self._lock:
            now = self._clock()
            entry = self._workers.get(worker)
            if entry is None or entry.rooms or entry.claim is None:
                return False
            if entry.claim[0] != claimer or entry.claim[1] <= now:
                return False
            del self._workers[worker]
            return True

    async def holder(self, worker: str) -> str | None:
        self._check_open()
        with self._lock:
            entry = self._workers.get(worker)
            return entry.holder if entry is not None and self._alive(entry, self._clock()) else None
