"""One asyncio lock per key, kept only while someone holds or waits for it.

Used for a room's commands in this process (rooms.service) and a worker's joins and departures
of one room (rooms.presence.rooms).
"""

from __future__ import annotations

import asyncio
from collections.abc import Hashable

__all__ = ["KeyedLocks"]


class _Held:
    """A key's lock, held for one ``async with``; ``users`` counts those holding or waiting
    for it, and the last one out takes it off the table. A class rather than an
    ``@asynccontextmanager`` generator: every join and departure takes one."""

    __slots__ = ("key", "lock", "table", "users")

    def __init__(self, table: dict[Hashable, _Held], key: Hashable) -> None:
        self.table = table
        self.key = key
        self.lock = asyncio.Lock()
        self.users = 0

    async def __aenter__(self) -> None:
        self.users += 1  # before the wait: the entry stays while someone waits for it
        try:
            await self.lock.acquire()
        except BaseException:  # cancelled while waiting: never held, so only counted out
            self._leave()
            raise

    async def __aexit__(self, *exc_info: object) -> None:
        self.lock.release()
        self._leave()

    def _leave(self) -> None:
        self.users -= 1
        if self.users == 0:
            del self.table[self.key]


class KeyedLocks:
    def __init__(self) -> None:
        self._table: dict[Hashable, _Held] = {}

    def hold(self, key: Hashable) -> _Held:
        """The key's lock, to hold with ``async with``. The entry is made here and counted
        when entered: nothing runs in between, so no other task can see it uncounted and
        take it off the table."""
        held = self._table.get(key)
        if held is None:
            held = self._table[key] = _Held(self._table, key)
        return held

    def __len__(self) -> int:
        return len(self._table)

    def users(self, key: Hashable) -> int:
        """How many hold or wait for the key's lock (0: it is not in the table)."""
        held = self._table.get(key)
        return held.users if held is not None else 0
