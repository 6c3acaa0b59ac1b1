"""Local first (rooms.service, rooms.fanout.hub): a worker's own listeners get its commits from
the commit, and the bus carries a commit only when the room records a connection of another
worker, on every backend."""

from __future__ import annotations

import asyncio
import json

import pytest

from core import MoveRequest, Rules
from rooms import Feed, Hub, Role, RoomService
from rooms.backends import Subscription
from rooms.backends.store import unframe
from rooms.room import Join, PlayMove
from tests.support.backends import BACKEND_URLS, BackendMaker, backend_url

A, B = "aaaaaaaaaaaa", "bbbbbbbbbbbb"
QUIET = 0.3
"""Seconds a subscription is watched to show that nothing was published."""


@pytest.fixture(params=BACKEND_URLS)
async def maker(request: pytest.FixtureRequest, makers: list[BackendMaker]) -> BackendMaker:
    url = backend_url(request)
    kind = {"memory://": "memory"}.get(url, "cluster" if "cluster" in url else "redis")
    made = BackendMaker(kind, None if kind == "memory" else url)
    makers.append(made)
    return made


def version_of(message: str) -> int:
    parts = unframe(message)
    return parts.version if parts is not None else int(json.loads(message)["version"])


async def published(subscription: Subscription) -> list[int]:
    """The versions ``subscription`` got until it stayed quiet for ``QUIET`` seconds."""
    versions = []
    while True:
        try:
            versions.append(version_of(await asyncio.wait_for(subscription.get(), QUIET)))
        except TimeoutError:
            return versions


async def test_a_room_held_by_one_worker_is_served_from_its_commits_and_never_published(
    maker: BackendMaker,
) -> None:
    pair = await maker.make()
    service = RoomService(pair.store)
    hub = Hub(pair.bus, service.cache)
    service.fan_out_locally(hub, worker=lambda: A)
    room = await service.create(Rules(), public=False)
    sent: list[str] = []
    feed = Feed(room.room_id, service, sent.append)
    await hub.attach(room.room_id, feed)
    feed.start(0)
    spy = await pair.bus.subscribe(room.room_id)  # what the bus carries for any other worker
    x, o = f"{A}.0000000000000001", f"{A}.0000000000000002"
    await service.execute(room.room_id, Join(x, Role.PLAYER, "Ada"))
    await service.execute(room.room_id, Join(o, Role.PLAYER, "Bob"))
    version = 2
    for number, (conn, col, row) in enumerate(((x, 0, 0), (o, 1, 1), (x, 2, 2))):
        move = PlayMove(conn, MoveRequest(col=col, row=row), version, f"m{number}")
        executed = await service.execute(room.room_id, move)
        version = executed.room.version
        # delivered from the commit itself, before the command's caller has it back
        assert [json.loads(text)["version"] for text in sent] == list(range(1, version + 1))
    assert await published(spy) == []
    # A spectator of another worker: from its join on, every commit is published.
    await service.execute(room.room_id, Join(f"{B}.0000000000000003", Role.SPECTATOR))
    await service.execute(room.room_id, PlayMove(o, MoveRequest(col=0, row=1), version + 1, "m3"))
    assert await published(spy) == [version + 1, version + 2]
    assert [json.loads(text)["version"] for text in sent] == list(range(1, version + 3))
    await spy.close()
    await hub.close()


async def test_a_service_without_a_local_fan_out_publishes_every_commit(
    maker: BackendMaker,
) -> None:
    """A service no hub listens to (tools, and tests of several services on one store)."""
    pair = await maker.make()
    service = RoomService(pair.store)
    room = await service.create(Rules(), public=False)
    spy = await pair.bus.subscribe(room.room_id)
    await service.execute(room.room_id, Join(f"{A}.0000000000000001", Role.PLAYER, "Ada"))
    await service.execute(room.room_id, Join(f"{A}.0000000000000002", Role.PLAYER, "Bob"))
    assert await published(spy) == [1, 2]
    await spy.close()
