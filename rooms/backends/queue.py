"""The QuickPlayQueue seam and its one-process memory backend (``MemoryQueue``).

Per rules and time control, the queue holds the public rooms waiting for a player, oldest first.
"""

from __future__ import annotations

import threading
from collections import deque
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


class MemoryQueue:
    """The queues of one process (for ``memory://``), behind a lock like the store."""

    def __init__(self) -> None:
        self._queues: dict[str, deque[str]] = {}
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

    def __len__(self) -> int:
        return sum(len(queue) for queue in self._queues.values())
