"""The QuickPlayQueue seam and its one-process memory backend (``MemoryQueue``).

Per rules and time control, the queue holds the public rooms waiting for a player, oldest first.
Beside the queues it keeps the **request records** of quick plays made with a join key: the key's
hash names the room the request is seating its player in, so a repeat of the request (its answer
was lost) finds that room from any worker (rooms.quickplay). A record is a short text that only
rooms.quickplay reads, and expires ``ttl`` seconds after its last write.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Protocol

__all__ = ["MemoryQueue", "QuickPlayQueue"]


class QuickPlayQueue(Protocol):
    async def pop(self, key: str) -> str | None:
        """Remove and return the oldest room id under ``key`` (None: empty)."""

    async def offer(self, key: str, room_id: str) -> str | None:
        """Atomically: remove and return the oldest room id if there is one; else queue
        ``room_id`` and return None."""

    async def push(self, key: str, room_id: str, *, front: bool = False) -> None:
        """Queue ``room_id`` (at the back; ``front``: as the oldest, when put back)."""

    async def claim_request(
        self, request: str, value: str, ttl: float, *, replacing: str | None = None
    ) -> str | None:
        """Atomically: if ``request`` has no record (or its record is ``replacing``), record
        ``value`` for ``ttl`` seconds and return None; else return the record."""

    async def record_request(self, request: str, value: str, ttl: float) -> None:
        """Record ``value`` for ``request`` for ``ttl`` seconds, whatever was there."""


_SWEEP_AT = 10_000
"""Request records the memory queue holds before a write sweeps the expired ones out."""


class MemoryQueue:
    """The queues of one process (for ``memory://``), behind a lock like the store."""

    def __init__(self, *, clock: Callable[[], float] = time.monotonic) -> None:
        self._queues: dict[str, deque[str]] = {}
        self._requests: dict[str, tuple[str, float]] = {}  # value, expiry
        self._clock = clock
        self._lock = threading.Lock()

    async def pop(self, key: str) -> str | None:
        with self._lock:
            queue = self._queues.get(key)
            return queue.popleft() if queue else None

    async def offer(self, key: str, room_id: str) -> str | None:
        with self._lock:
            queue = self._queues.setdefault(key, deque())
            if queue:
                return queue.popleft()
            queue.append(room_id)
            return None

    async def push(self, key: str, room_id: str, *, front: bool = False) -> None:
        with self._lock:
            queue = self._queues.setdefault(key, deque())
            if front:
                queue.appendleft(room_id)
            else:
                queue.append(room_id)

    async def claim_request(
        self, request: str, value: str, ttl: float, *, replacing: str | None = None
    ) -> str | None:
        with self._lock:
            now = self._clock()
            held = self._requests.get(request)
            current = held[0] if held is not None and held[1] > now else None
            if current is not None and current != replacing:
                return current
            self._write(request, value, now + ttl)
            return None

    async def record_request(self, request: str, value: str, ttl: float) -> None:
        with self._lock:
            self._write(request, value, self._clock() + ttl)

    def _write(self, request: str, value: str, expires: float) -> None:
        if len(self._requests) >= _SWEEP_AT:  # amortised: one sweep per so many records
            now = self._clock()
            self._requests = {k: v for k, v in self._requests.items() if v[1] > now}
        self._requests[request] = (value, expires)

    def __len__(self) -> int:
        return sum(len(queue) for queue in self._queues.values())
