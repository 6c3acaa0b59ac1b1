"""A room's lifecycle on Redis with two workers: CPU per game and commands per step.

    .venv/bin/python -m bench.rooms --redis redis://127.0.0.1:6379/9

What the load benchmark's default mode adds to a game's moves, without the sockets: two workers
in this process (store, bus, hub, service and presence each, on the given Redis under a prefix
of their own, deleted afterwards) run the server's session steps. A creates the room; X joins on
A, O on B, a spectator on A (hub attach, ``Presence.join``, the welcome encoded); then they
leave in that order.

- *commands per step*: what each step sends to Redis: the store's and registry's commands and
  the bus's ``SUBSCRIBE``/``UNSUBSCRIBE`` (none on a departure: the channel lingers and goes
  later in a batch, rooms.backends.redis.bus);
- *µs CPU per game*: process CPU time for whole lifecycles run by ``loops`` concurrent game
  loops (both workers and their Redis clients, not redis-server), best of the rounds.
"""

from __future__ import annotations

import asyncio
import secrets
from collections import Counter
from time import process_time
from typing import Any

from rooms import Feed, Hub, Presence, Role, RoomService, open_backend
from rooms.backends.redis.bus import RedisBus
from rooms.backends.redis.presence import RedisRegistry
from rooms.backends.redis.store import RedisStore
from rooms.protocol import dumps, welcome_message
from rooms.room import Join, JoinReply

__all__ = ["STEPS", "measure_lifecycle"]

STEPS = (
    "create on A",
    "X joins on A",
    "O joins on B",
    "spectator joins on A",
    "X leaves A",
    "O leaves B",
    "spectator leaves A",
)


class _Worker:
    def __init__(self, url: str) -> None:
        self.backend = open_backend(url)
        self.service = RoomService(self.backend.store)
        self.hub = Hub(self.backend.bus, self.service.cache)
        self.registry = self.backend.registry
        self.presence = Presence(self.registry, self.service, ttl=60.0)
        self.service.fan_out_locally(self.hub, worker=lambda: self.presence.worker)

    async def open(self) -> None:
        await self.backend.open()
        await self.presence.start()

    async def close(self) -> None:
        await self.presence.close()
        await self.hub.close()
        await self.backend.close()

    def sent(self) -> Counter[str]:
        """Commands sent so far by the store's and the registry's hot paths, and the bus's
        (UN)SUBSCRIBEs (a channel left with no listener lingers: rooms.backends.redis.bus)."""
        store, registry, bus = self.backend.store, self.registry, self.backend.bus
        assert isinstance(store, RedisStore) and isinstance(registry, RedisRegistry)
        assert isinstance(bus, RedisBus)
        return Counter(
            {
                "store": getattr(store.calls, "commands", 0),
                "presence": getattr(registry.calls, "commands", 0),
                "bus": bus.sent["SUBSCRIBE"] + bus.sent["UNSUBSCRIBE"],
            }
        )

    async def join(self, room_id: str, role: Role) -> tuple[str, Feed]:
        """As server.ws.session does: attach, join through presence, encode the welcome."""
        conn = self.presence.connection_id()
        feed = Feed(room_id, self.service, lambda text: None)
        await self.hub.attach(room_id, feed)
        executed = await self.presence.join(room_id, Join(conn, role, None), lambda: None)
        assert isinstance(executed.reply, JoinReply)
        dumps(welcome_message(room_id, executed.reply, executed.room.snapshot(), None))
        feed.start(executed.room.version)
        return conn, feed

    async def leave(self, room_id: str, conn: str, feed: Feed) -> None:
        feed.close()
        await self.hub.detach(room_id, feed)
        await self.presence.leave(room_id, conn)


async def _game(a: _Worker, b: _Worker, steps: list[Counter[str]] | None = None) -> None:
    """One lifecycle; with ``steps``, what each step sent (one Counter per step)."""

    async def step(action: Any, workers: tuple[_Worker, ...] = (a, b)) -> Any:
        before = sum((w.sent() for w in workers), Counter())
        result = await action
        if steps is not None:
            steps.append(+(sum((w.sent() for w in workers), Counter()) - before))
            await asyncio.sleep(0.01)  # the bus brings the commit to the other worker
        return result

    room_id = ""
    room = await step(a.service.create({}, public=False))
    room_id = room.room_id
    joined = [
        (worker, await step(worker.join(room_id, role)))
        for worker, role in ((a, Role.PLAYER), (b, Role.PLAYER), (a, Role.SPECTATOR))
    ]
    for worker, (conn, feed) in joined:
        await step(worker.leave(room_id, conn, feed))


async def _run(url: str, loops: int, games: int) -> tuple[float, list[Counter[str]]]:
    a, b = _Worker(url), _Worker(url)
    await a.open()
    await b.open()
    try:
        steps: list[Counter[str]] = []
        await _game(a, b)  # Redis learns the scripts
        await _game(a, b, steps)

        async def loop() -> None:
            for _ in range(games):
                await _game(a, b)

        started = process_time()
        await asyncio.gather(*(loop() for _ in range(loops)))
        return (process_time() - started) / (loops * games) * 1e6, steps
    finally:
        await a.close()
        await b.close()


async def _clean(url: str, prefix: str) -> None:
    import redis.asyncio as aioredis  # only here: bench.rooms runs without Redis too

    client = aioredis.Redis.from_url(url.split("?", 1)[0])
    try:
        keys = [key async for key in client.scan_iter(f"{prefix}:*", count=1000)]
        for start in range(0, len(keys), 500):
            await client.delete(*keys[start : start + 500])
    finally:
        await client.aclose()


def measure_lifecycle(
    url: str, rounds: int = 3, loops: int = 20, games: int = 20
) -> dict[str, Any]:
    """µs CPU per game (best of ``rounds``) and the commands of each step."""
    prefix = f"bench-lifecycle-{secrets.token_hex(4)}"
    prefixed = f"{url}{'&' if '?' in url else '?'}prefix={prefix}"
    best, steps = float("inf"), list[Counter[str]]()
    try:
        for _ in range(rounds):
            spent, steps = asyncio.run(_run(prefixed, loops, games))
            best = min(best, spent)
    finally:
        asyncio.run(_clean(url, prefix))
    return {
        f"µs CPU per game lifecycle ({loops} concurrent loops)": best,
        "commands per step (store, presence, bus)": {
            name: sent["store"] + sent["presence"] + sent["bus"]
            for name, sent in zip(STEPS, steps, strict=True)
        },
        "commands per step, by client": {
            name: dict(sent) for name, sent in zip(STEPS, steps, strict=True)
        },
    }
