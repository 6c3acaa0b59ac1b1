"""Presence across workers on every backend: several workers (a service, a Presence and a
Sweeper each) share one store and one registry. A worker that stops renewing its lease
(as a crash does) has its connections evicted by exactly one live worker, with the usual
events; the opponent can then claim, the player can resume, and the rooms the dead worker
held are watched by the sweeping worker (flags fall, owed bot moves are played)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field

import pytest

from core import MoveRequest, Rules
from rooms import (
    Backend,
    ErrorCode,
    Presence,
    Role,
    RoomError,
    RoomService,
    RoomSettings,
    Status,
    Sweeper,
    TimeControl,
    Watch,
)
from rooms.backends import MemoryRegistry, Registry
from rooms.room import Claim, Join, JoinReply, PlayMove
from rooms.room.events import GameOver
from tests.rooms.backends.test_registry_contract import with_prefix
from tests.support.backends import registry_for, unique_prefix
from tests.support.handled import event_of
from tests.support.waiting import eventually, retrying

TTL = 0.6  # short leases: a test waits about this long for a death to be noticed
WAIT = 20.0  # a bound against hangs, never a measurement


@dataclass
class Worker:
    service: RoomService
    presence: Presence
    sweeper: Sweeper
    closed: list[str] = field(default_factory=list)  # connections told to close

    async def join(
        self,
        room_id: str,
        role: Role = Role.PLAYER,
        *,
        name: str | None = None,
        token: str | None = None,
    ) -> tuple[str, JoinReply]:
        """A connection of this worker joins, as the server's session does."""
        conn = self.presence.connection_id()
        await self.presence.enter(room_id, conn, lambda: self.closed.append(conn))
        executed = await self.service.execute(room_id, Join(conn, role, name, token))
        assert isinstance(executed.reply, JoinReply)
        return conn, executed.reply


Workers = Callable[[int], Awaitable[list[Worker]]]


@pytest.fixture
async def workers(backend: Backend, request: pytest.FixtureRequest) -> AsyncIterator[Workers]:
    """``await workers(n)``: n started workers on the test's backend, closed afterwards.
    Each Redis worker has its own registry client (under a prefix of this test)."""
    made: list[Worker] = []
    registries: list[Registry] = []
    prefix, shared = unique_prefix(), MemoryRegistry()

    async def make(count: int) -> list[Worker]:
        started = []
        for _ in range(count):
            registry: Registry = shared
            if backend.store.name != "memory":
                registry = registry_for(with_prefix(backend.url, prefix))
                registries.append(registry)
            await registry.open()
            service = RoomService(backend.store)
            presence = Presence(registry, service, ttl=TTL)
            await presence.start()
            worker = Worker(service, presence, Sweeper(registry, service, presence, interval=0.1))
            made.append(worker)
            started.append(worker)
        return started

    yield make
    for worker in made:
        await worker.sweeper.close()
        await worker.presence.close()
    for registry in registries:
        await registry.close()


def crash(worker: Worker) -> Awaitable[None]:
    """What kill -9 leaves behind: no more heartbeats, no release, no Leave."""
    return worker.presence.close(release=False)


async def sweep_until(
    sweepers: list[Worker], done: Callable[[], Awaitable[bool]], what: str
) -> None:
    """Sweep on every one of ``sweepers`` until ``done()``."""

    async def swept() -> bool:
        if await done():
            return True
        await asyncio.gather(*(w.sweeper.sweep() for w in sweepers))
        return False

    await eventually(swept, what, timeout=WAIT, interval=0.05)


async def events_of(service: RoomService, room_id: str, after: int) -> list[dict[str, object]]:
    texts = await service.events_since(room_id, after)
    assert texts is not None
    return [json.loads(text) for text in texts]


async def test_a_dead_workers_connections_are_evicted_once_and_its_seat_can_be_claimed(
    workers: Workers,
) -> None:
    dying, left, right = await workers(3)
    room = await left.service.create(
        Rules(), public=False, settings=RoomSettings(abandon_grace=0.2)
    )
    x_conn, x = await dying.join(room.room_id, name="Ada")
    o_conn, _ = await left.join(room.room_id, name="Grace")
    for _ in range(2):
        await dying.join(room.room_id, Role.SPECTATOR)
    await right.join(room.room_id, Role.SPECTATOR)
    before = (await left.service.load(room.room_id)).version
    await crash(dying)

    async def evicted() -> bool:
        loaded = await left.service.load(room.room_id)
        return not loaded.seats[0].connections and len(loaded.spectators) == 1

    # two sweepers racing
    await sweep_until([left, right], evicted, "the dead worker's connections evicted")
    await sweep_until([left, right], lambda: _finished(left, right), "the dead worker finished")
    events = await events_of(left.service, room.room_id, before)
    assert [(e["type"], e.get("mark"), e.get("connected"), e.get("count")) for e in events] == [
        ("presence", "X", False, None),
        ("spectators", None, None, 1),
    ], "each departure announced exactly once"
    assert left.sweeper.evictions + right.sweeper.evictions == 2
    assert events[0]["left"] is False and events[0]["claimable_at"] is not None
    assert left.closed == [] and right.closed == []  # nobody live was touched
    assert o_conn in (await left.service.load(room.room_id)).seats[1].connections

    # The opponent claims the win once the grace passed; the player can still resume.
    ended = await retrying(
        lambda: left.service.execute(room.room_id, Claim(o_conn)),
        "the abandoned seat claimable",
        transient=lambda exc: isinstance(exc, RoomError) and exc.code is ErrorCode.NOT_CLAIMABLE,
        timeout=WAIT,
    )
    outcome = event_of(ended, GameOver).outcome
    assert outcome["reason"] == "abandonment" and outcome["loser"] == "X"
    _, resumed = await right.join(room.room_id, token=x.token)
    assert resumed.mark == "X"
    assert (await right.service.load(room.room_id)).seats[0].connected
    assert x_conn not in (await right.service.load(room.room_id)).seats[0].connections


async def _finished(*sweepers: Worker) -> bool:
    return sum(w.sweeper.finished for w in sweepers) == 1


async def test_a_live_worker_is_never_swept(workers: Workers) -> None:
    one, two = await workers(2)
    room = await one.service.create(Rules(), public=False)
    await one.join(room.room_id, name="Ada")
    version = (await one.service.load(room.room_id)).version
    # Time passing is the test: sweeps over three lease periods (bounded: 1.8 s) while the
    # live worker renews its lease; none of them may evict anything.
    for _ in range(int(TTL * 3 / 0.1)):
        await two.sweeper.sweep()
        await asyncio.sleep(0.1)
    assert two.sweeper.evictions == 0
    assert (await one.service.load(room.room_id)).version == version


async def test_a_flag_falls_and_a_bot_plays_on_the_sweeping_worker(workers: Workers) -> None:
    dying, survivor = await workers(2)
    watch = Watch(survivor.service, retry=0.1)
    try:
        # Both players of a clocked game were on the dying worker; nobody moved first.
        clocked = await dying.service.create(
            Rules(),
            public=False,
            settings=RoomSettings(time_control=TimeControl(initial=60.0, first_move=0.5)),
        )
        await dying.join(clocked.room_id, name="Ada")
        await dying.join(clocked.room_id, name="Grace")
        # A bot game whose human moved on the dying worker, which died before the bot did.
        botted = await dying.service.create(Rules(), public=False, bot=("random", "O"))
        human, _ = await dying.join(botted.room_id, name="Ada")
        version = (await dying.service.load(botted.room_id)).version
        await dying.service.execute(
            botted.room_id, PlayMove(human, MoveRequest(col=1, row=1), version, "m1")
        )
        await crash(dying)

        async def both_done() -> bool:
            flagged = await survivor.service.load(clocked.room_id)
            bot_room = await survivor.service.load(botted.room_id)
            return flagged.status is Status.FINISHED and bot_room.game.ply == 2

        await sweep_until([survivor], both_done, "the flag fallen and the bot's move played")
        outcome = (await survivor.service.load(clocked.room_id)).game.outcome
        assert outcome is not None and outcome.reason.value == "aborted"
        assert watch.ticks == 1 and watch.bot_moves == 1
    finally:
        await watch.close()
