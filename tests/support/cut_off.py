"""A worker's memory backends cut off from their store as a network partition would: a
``CutOffStore`` whose commits fail, and a ``CutOffRegistry`` whose lease renewals fail,
while ``down``, as an unreachable Redis does (``unavailable``); and a ``Clock`` the test
moves, for the leases."""

from __future__ import annotations

from typing import Any

from rooms import ErrorCode, RoomError
from rooms.backends import MemoryRegistry, MemoryStore

__all__ = ["Clock", "CutOffRegistry", "CutOffStore"]


def _unreachable() -> RoomError:
    return RoomError(ErrorCode.UNAVAILABLE, "the room store is unavailable; retry")


class Clock:
    """The time a test sets: ``now``, from 1000.0."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


class CutOffStore(MemoryStore):
    """A memory store whose commits fail while ``down``; ``attempts`` counts the commits
    tried meanwhile."""

    down = False
    attempts = 0

    async def commit(self, *args: Any, **kwargs: Any) -> bool:
        if self.down:
            self.attempts += 1
            raise _unreachable()
        return await super().commit(*args, **kwargs)


class CutOffRegistry(MemoryRegistry):
    """A memory registry whose renewals fail while ``down``."""

    down = False

    async def renew(self, worker: str, ttl: float) -> bool:
        if self.down:
            raise _unreachable()
        return await super().renew(worker, ttl)
