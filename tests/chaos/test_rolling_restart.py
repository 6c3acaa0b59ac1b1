"""A rolling restart of two servers behind the deployment's HAProxy (deploy/haproxy.cfg),
each stopped with SIGTERM and ``--drain-period``, then started again in its place.

For each server in turn: once SIGTERMed its ``/readyz`` answers 503 ``draining``, and
HAProxy's checks mark it DOWN in every backend while its games go on (its players' moves
are acknowledged); only after that does it close its players' sockets with 1012. They
reconnect through HAProxy, land on the other server, resume their seats with their tokens
and play on. No client is closed before the balancer stopped sending it new ones.
"""

from __future__ import annotations

import asyncio
import re
import signal
import time
from pathlib import Path

import pytest
from websockets.asyncio.client import connect

from tests.chaos.balancer import SERVED_BY, LoadBalancer
from tests.support.server_process import Fleet, ServerProcess, create_room
from tests.support.waiting import eventually
from tests.support.ws_client import Client

pytestmark = [pytest.mark.redis, pytest.mark.slow]  # a chaos suite: the slow tier

DRAIN = 12.0
"""Longer than deploy/haproxy.cfg's checks take to turn a server DOWN (``inter 2s fall 2``:
4 to 6 s), with room for a loaded test host."""
BACKENDS = ("rooms", "crowd", "app")


class Seat:
    """A player through the balancer: its socket, the server it landed on, its token."""

    def __init__(self, lb: LoadBalancer, room_id: str) -> None:
        self.lb, self.room_id = lb, room_id
        self.client: Client | None = None
        self.on = ""
        self.token: str | None = None

    async def open(self) -> None:
        ws = await connect(self.lb.ws(self.room_id), proxy=None, open_timeout=30)
        assert ws.response is not None
        self.on = ws.response.headers[SERVED_BY].split("/")[1]
        self.client = Client(ws)
        welcome = await self.client.join(token=self.token, name="P")
        assert welcome["type"] == "welcome", welcome
        self.token = welcome.get("token") or self.token  # a resume may not repeat it

    @property
    def live(self) -> Client:
        assert self.client is not None
        return self.client


CELLS = [(1, 1), (0, 0), (2, 2), (0, 2), (2, 0)]
"""The moves each game plays, X first: none of them ends the game."""


class Game:
    """A room's two seats and how far its game is."""

    def __init__(self, x: Seat, o: Seat) -> None:
        self.x, self.o = x, o
        self.moves = 0

    @property
    def on(self) -> str:
        assert self.x.on == self.o.on, (self.x.on, self.o.on)
        return self.x.on

    async def play(self, move_id: str) -> None:
        """The next move, acknowledged and seen by the opponent."""
        mover, other = (self.x, self.o) if self.moves % 2 == 0 else (self.o, self.x)
        row, col = CELLS[self.moves]
        answer = await mover.live.move(row, col, move_id=move_id)
        assert answer["type"] == "move_ok", answer
        await other.live.seen(answer["version"])
        self.moves += 1


def marked(lb: LoadBalancer, server: str, state: str) -> int:
    """How many backends' checks have logged ``server`` turning ``state`` (DOWN or UP)."""
    log = lb.log_path.read_text(errors="replace")
    return len({b for b in BACKENDS if re.search(rf"Server {b}/{server} is {state}\b", log)})


async def games(lb: LoadBalancer, each: int) -> list[Game]:
    """Rooms with both players seated through the balancer until each server holds
    ``each`` of them."""
    held: dict[str, list[Game]] = {"app1": [], "app2": []}
    for _ in range(100):
        if all(len(rooms) >= each for rooms in held.values()):
            break
        room_id = await create_room(lb, {}, public=False)
        x, o = Seat(lb, room_id), Seat(lb, room_id)
        await x.open()
        await o.open()
        game = Game(x, o)
        held[game.on].append(game)
    assert all(len(rooms) >= each for rooms in held.values()), held
    return [game for rooms in held.values() for game in rooms]


async def restart(
    fleet: Fleet, lb: LoadBalancer, old: ServerProcess, name: str, every: list[Game]
) -> ServerProcess:
    on_it = [game for game in every if game.on == name]
    assert on_it
    down_before, up_before = marked(lb, name, "DOWN"), marked(lb, name, "UP")
    old.process.send_signal(signal.SIGTERM)
    began = time.monotonic()
    # while it drains, its games go on
    for game in on_it:
        await game.play(f"drain-{name}-{game.x.room_id}")
    down_at: float | None = None
    closes: list[tuple[float, int | None]] = []

    async def closed(seat: Seat) -> None:
        while not seat.live.done:  # its reader ends with the socket
            await asyncio.sleep(0.01)
        closes.append((time.monotonic(), seat.live.close_code))

    seats = [seat for game in on_it for seat in (game.x, game.o)]
    waiting = [asyncio.create_task(closed(seat)) for seat in seats]
    while not all(task.done() for task in waiting):
        if down_at is None and marked(lb, name, "DOWN") - down_before == len(BACKENDS):
            down_at = time.monotonic()
        assert time.monotonic() - began < DRAIN + 60, lb.log_path.read_text()[-3000:]
        await asyncio.sleep(0.02)
    await asyncio.gather(*waiting)
    assert down_at is not None, f"closed before HAProxy marked {name} DOWN everywhere"
    for at, code in closes:
        assert code == 1012
        assert at > down_at, (at - began, down_at - began)
    assert await asyncio.to_thread(old.process.wait, 60) == 143
    # the players come back through the balancer on the other server and play on
    for game in on_it:
        await game.x.open()
        await game.o.open()
        assert game.on != name
        await game.play(f"after-{name}-{game.x.room_id}")
    new = fleet.launch("--drain-period", str(DRAIN), store_url=old_store(old), port=old.port)

    async def back_up() -> bool:
        assert new.alive, new.log_tail()
        return marked(lb, name, "UP") - up_before == len(BACKENDS)

    await eventually(back_up, f"{name} UP again in HAProxy", timeout=120)
    return new


def old_store(server: ServerProcess) -> str:
    args = server.process.args
    assert isinstance(args, list)
    return str(args[args.index("--redis-url") + 1])


async def test_a_rolling_restart_with_drain_closes_no_client_early(
    fleet: Fleet, redis_url: str, tmp_path: Path
) -> None:
    servers = [fleet.launch("--drain-period", str(DRAIN), store_url=redis_url) for _ in "ab"]
    for server in servers:
        await asyncio.to_thread(server.wait_ready)
    lb = LoadBalancer(servers, tmp_path / "haproxy")
    try:
        await asyncio.to_thread(lb.wait_ready)
        every = await games(lb, 2)
        for index, name in enumerate(("app1", "app2")):
            servers[index] = await restart(fleet, lb, servers[index], name, every)
        assert all(game.moves >= 2 for game in every)
    finally:
        lb.stop()
