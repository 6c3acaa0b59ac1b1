"""Following the primary through a failover: a look at Sentinel every ``interval`` seconds.

A failover does not close the clients' connections to the old primary: Sentinel reconfigures
it as a replica only seconds later, and until then it still takes writes that the new primary
never sees (they are lost when it resyncs). So a worker does not wait for its connections to
break: ``MasterWatch`` asks Sentinel for the primary every ``interval`` and, when it moved,
closes every connection of every client it follows (idle, in use, the auto-pipeline's kept
one) and tells its listeners (the bus drops its pub/sub connection); each reconnects to the
primary Sentinel names (``client.FollowingConnection``). A Sentinel that does not answer is
retried at the next look; the clients keep their connections meanwhile.

The watch owns the Sentinel client and the data clients of one backend and closes them all.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

import redis.asyncio as aioredis
from redis import exceptions as rx
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool

from rooms.common.tasks import stop_task

__all__ = ["INTERVAL", "MasterWatch"]

log = logging.getLogger("tictactoe.rooms")

INTERVAL = 0.5
"""Seconds between two looks at Sentinel: about how long after Sentinel's switch a worker
may still write to the old primary (see docs/operations.md, "Redis Sentinel")."""


class MasterWatch:
    def __init__(self, sentinel: Sentinel, service: str, *, interval: float = INTERVAL) -> None:
        if isinstance(interval, bool) or not isinstance(interval, int | float) or interval <= 0:
            raise ValueError(f"interval must be a number of seconds above 0, not {interval!r}")
        self.sentinel = sentinel
        self.service = service
        self._interval = float(interval)
        self._clients: list[aioredis.Redis] = []
        self._listeners: list[Callable[[], Awaitable[None]]] = []
        self._task: asyncio.Task[None] | None = None
        self.primary: tuple[str, int] | None = None
        """The primary's address at the last look (None before the first answer)."""
        self.switches = 0
        """Failovers this watch followed."""

    def follow(self, client: aioredis.Redis) -> aioredis.Redis:
        """Move ``client``'s connections at each failover, and close it with the watch."""
        self._clients.append(client)
        return client

    def on_switch(self, listener: Callable[[], Awaitable[None]]) -> None:
        self._listeners.append(listener)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._run(), name="redis-sentinel-watch")

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            await stop_task(task)
        for client in self._clients:
            await client.aclose()
        self._clients.clear()
        await self.sentinel.aclose()

    async def look(self) -> bool:
        """Ask Sentinel once; move every connection if the primary changed (True then)."""
        address = await self.sentinel.discover_master(self.service)
        address = (str(address[0]), int(address[1]))
        previous, self.primary = self.primary, address
        if previous is None or previous == address:
            return False
        self.switches += 1
        log.warning(
            "redis sentinel: %s moved from %s:%d to %s:%d; reconnecting",
            self.service,
            *previous,
            *address,
        )
        for client in self._clients:
            pool = client.connection_pool
            if isinstance(pool, SentinelConnectionPool):
                pool.master_address = address
            await pool.disconnect(inuse_connections=True)
        for listener in self._listeners:
            await listener()
        return True

    async def _run(self) -> None:
        while True:
            try:
                await self.look()
            except (rx.RedisError, OSError, TimeoutError) as exc:
                log.debug("redis sentinel: no answer about %s (%s)", self.service, exc)
            await asyncio.sleep(self._interval)
