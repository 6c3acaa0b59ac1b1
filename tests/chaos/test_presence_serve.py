"""Presence across real ``tictactoe serve`` processes on one private Redis.

* ``kill -9`` of the worker holding a player and a spectator: the opponent, on the other
  worker, sees the player's ``connected`` go false and the spectator count drop; after
  the (short) abandonment grace it claims the win; the killed player's client resumes its
  seat on the surviving worker with its token.
* A worker frozen (SIGSTOP) for less than its lease keeps everything; frozen for longer,
  its connections are evicted by the other worker, and when it thaws it closes them with
  1012, so its clients resume and are seen connected again.

Leases of 1-2 s and a sweep every 0.2 s; every wait is bounded, none is a measurement.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import time
from collections.abc import Callable
from typing import Any

import pytest
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.support.redis_server import RedisServer
from tests.support.server_process import Fleet, ServerProcess, create_room, snapshot

pytestmark = pytest.mark.redis

WAIT = 30.0
Message = dict[str, Any]


class Client:
    """One WebSocket to one server: every message kept in order, the close code noted."""

    def __init__(self, ws: ClientConnection, name: str) -> None:
        self.ws, self.name = ws, name
        self.messages: list[Message] = []
        self.close_code: int | None = None
        self.changed = asyncio.Event()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def join(
        cls, server: ServerProcess, room_id: str, role: str, name: str, token: str | None = None
    ) -> tuple[Client, Message]:
        client = cls(await connect(server.ws(room_id), proxy=None, open_timeout=10), name)
        message: Message = {"type": "join", "as": role, "name": name}
        if token is not None:
            message["token"] = token
        await client.ws.send(json.dumps(message))
        return client, await client.first(lambda m: m["type"] == "welcome", "welcome")

    async def _read(self) -> None:
        try:
            async for text in self.ws:
                self.messages.append(json.loads(text))
                self.changed.set()
        except ConnectionClosed:
            pass
        finally:
            self.close_code = self.ws.close_code
            self.changed.set()

    @property
    def closed(self) -> bool:
        return self._reader.done()

    async def first(self, match: Callable[[Message], bool], what: str) -> Message:
        """The first message so far (or to come) that matches."""
        deadline = time.monotonic() + WAIT
        while True:
            found = next((m for m in self.messages if match(m)), None)
            if found is not None:
                return found
            assert not self.closed, f"{self.name}: closed ({self.close_code}) before {what}"
            assert time.monotonic() < deadline, f"{self.name}: no {what}: {self.messages[-4:]}"
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), 0.5)

    async def until_closed(self) -> int | None:
        await asyncio.wait_for(asyncio.shield(self._reader), WAIT)
        return self.close_code

    async def send(self, message: Message) -> None:
        await self.ws.send(json.dumps(message))

    async def close(self) -> None:
        with contextlib.suppress(ConnectionClosed, OSError, TimeoutError):
            await asyncio.wait_for(self.ws.close(), 5)
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._reader


def presence_of(mark: str, connected: bool) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "presence" and m["mark"] == mark and m["connected"] is connected


def spectators(count: int) -> Callable[[Message], bool]:
    return lambda m: m["type"] == "spectators" and m["count"] == count


def answer_to(ref: str) -> Callable[[Message], bool]:
    return lambda m: m["type"] in ("ack", "error") and m.get("ref") == ref


async def claim_when_allowed(client: Client) -> Message:
    """Claim the win, again after each ``not_claimable`` (it says when to retry)."""
    deadline = time.monotonic() + WAIT
    for attempt in range(1000):
        ref = f"claim-{attempt}"
        await client.send({"type": "claim", "result": "win", "id": ref})
        answer = await client.first(answer_to(ref), "answer")
        if answer["type"] == "ack":
            return answer
        assert answer["code"] == "not_claimable", answer
        assert time.monotonic() < deadline, "never claimable"
        # as long as the server said (retry_after), as a client must
        await asyncio.sleep(min(float(answer.get("retry_after") or 0.1), 1.0))
    raise AssertionError("gave up claiming")


async def test_kill_9_of_a_players_worker_frees_the_seat_for_a_claim_and_a_resume(
    own_redis_server: RedisServer, fleet: Fleet, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TICTACTOE_ABANDON_GRACE", "1.5")  # stored in the room when created
    doomed, survivor = fleet.start(
        own_redis_server.url, 2, "--lease-ttl", "1", "--sweep-interval", "0.2"
    )
    room_id = await create_room(survivor, {}, public=False)
    x, welcome = await Client.join(doomed, room_id, "player", "Ada")
    token = welcome["token"]
    watcher, _ = await Client.join(doomed, room_id, "spectator", "Watcher")
    o, _ = await Client.join(survivor, room_id, "player", "Grace")
    other_watcher, _ = await Client.join(survivor, room_id, "spectator", "Other")
    await o.first(spectators(2), "two spectators")
    clients = [o, other_watcher]
    try:
        doomed.kill()  # no Leave, no release: only the lease expiring tells
        gone = await o.first(presence_of("X", False), "X disconnected")
        assert gone["left"] is False and gone["claimable_at"] is not None
        assert (await o.first(spectators(1), "the spectator count dropped"))["count"] == 1
        await other_watcher.first(presence_of("X", False), "X disconnected (spectator)")

        await claim_when_allowed(o)
        over = await o.first(lambda m: m["type"] == "game_over", "game over")
        assert over["outcome"]["reason"] == "abandonment" and over["outcome"]["winner"] == "O"

        back, resumed = await Client.join(survivor, room_id, "player", "Ada", token=token)
        clients.append(back)
        assert resumed["mark"] == "X" and resumed["token"] is None  # the same seat, resumed
        assert resumed["state"]["players"][0]["connected"] is True
        await o.first(presence_of("X", True), "X back")
        state = await snapshot(survivor, room_id)
        assert state["spectators"] == 1 and state["status"] == "finished"
    finally:
        for client in (*clients, x, watcher):
            await client.close()


async def test_a_frozen_worker_keeps_its_lease_or_hands_its_clients_over(
    own_redis_server: RedisServer, fleet: Fleet
) -> None:
    frozen, awake = fleet.start(
        own_redis_server.url, 2, "--lease-ttl", "2", "--sweep-interval", "0.2"
    )
    room_id = await create_room(awake, {}, public=False)
    x, welcome = await Client.join(frozen, room_id, "player", "Ada")
    watcher, _ = await Client.join(frozen, room_id, "spectator", "Watcher")
    o, o_welcome = await Client.join(awake, room_id, "player", "Grace")
    clients = [x, watcher, o]
    try:
        # A pause well inside the lease (a GC pause, a short SIGSTOP): nothing happens.
        os.kill(frozen.process.pid, signal.SIGSTOP)
        try:
            await asyncio.sleep(0.5)  # the test: frozen for half a second, a quarter of its lease
        finally:
            os.kill(frozen.process.pid, signal.SIGCONT)
        await x.send(
            {"type": "move", "row": 1, "col": 1, "version": o_welcome["version"], "move_id": "m1"}
        )
        await o.first(lambda m: m["type"] == "moved", "X's move after the pause")
        # Nothing happens (bounded): more sweeps on the awake worker, still nothing to evict.
        await asyncio.sleep(0.5)
        assert not any(presence_of("X", False)(m) for m in o.messages)
        assert not x.closed and not watcher.closed

        # Frozen past its lease: the awake worker evicts its connections...
        os.kill(frozen.process.pid, signal.SIGSTOP)
        try:
            await o.first(presence_of("X", False), "X evicted")
            await o.first(spectators(0), "the spectator evicted")
        finally:
            os.kill(frozen.process.pid, signal.SIGCONT)
        # ...and the thawed worker closes them (1012: resume), under a new lease.
        assert await x.until_closed() == 1012
        assert await watcher.until_closed() == 1012
        back, resumed = await Client.join(frozen, room_id, "player", "Ada", token=welcome["token"])
        clients.append(back)
        assert resumed["mark"] == "X"
        await o.first(presence_of("X", True), "X back on the thawed worker")
        assert (await frozen.readyz())[0] == 200
    finally:
        for client in clients:
            await client.close()
