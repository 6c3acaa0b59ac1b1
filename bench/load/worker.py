"""Load processes: each plays its share of the games; the parent starts, watches and joins.

The load runs in ``procs`` processes of its own (``spawn``: safe under a threaded parent such as
pytest), never in the process that samples the server. Each prepares its scripted games, says it
is ready, and starts at the ``time.monotonic()`` instant the parent chose, so the windows line
up; each stops by itself (no new game after the window, ``drain`` seconds for the games in
flight, then cancellation). ``next`` says what follows a game: a new room, or a rematch
(bench.load.series), where with several processes and at least ``crowd_from`` spectators a game
every room's spectators are spread over all processes (bench.load.crowd). With ``open_loop``
each game's moves fall due on a clock instead of after think times (bench.load.schedule).

Once set up, a process runs the server's collector policy (``settle``,
server.fastpath.collector): the set-up heap is frozen, the young generations are frozen as the
loop runs, and a full collection waits until the heap doubles. CPython's own collections would
find nothing among thousands of connections yet stall every move in flight, becoming the run's
latency tail.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
import random
import time
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from time import perf_counter
from typing import Any

from server.fastpath import Collector

from .crowd import Crowd, seat_players
from .game import JOINING, play_game, together
from .http import HttpPool
from .recorder import Recorder
from .schedule import Schedule
from .scripts import Script, make_scripts
from .series import Seated, play_series
from .think import SPREAD, Think

__all__ = ["CROWD_FROM", "CrowdShare", "LoadPlan", "Progress", "child_main", "settle"]

SCRIPTS = 1000  # distinct pre-played games per process (cycled)
TICK = 0.25  # seconds between progress updates
CROWD_FROM = 100
CROWD_QUIET = 1.0
"""Crowd mode, every game over: the spectators read on until this long without a message"""
CROWD_CATCH_UP = 30.0
"""... for at most this long."""
"""Spectators a game from which rematch mode with several processes spreads them."""


@dataclass(frozen=True, slots=True)
class CrowdShare:
    """One process's part of the crowd: spectators it joins to every room of the run."""

    each: int
    gate: int
    """Its joins at once per room (the processes together: about ``JOINING``)."""
    timeout: float
    """Bound on the whole join (the parent waits a little longer)."""


@dataclass(frozen=True, slots=True)
class LoadPlan:
    base_url: str
    """``http://127.0.0.1:PORT`` of the server or relay."""
    games: int
    spectators: int
    think: float
    warmup: float
    duration: float
    rules: dict[str, Any]
    seed: int = 1
    procs: int = 1
    next: str = "room"
    """After a game: ``"room"`` (a new one) or ``"rematch"`` (the same room and people)."""
    think_spread: float = SPREAD
    """Each think time is drawn from ``think × [1 − spread, 1 + spread]`` (bench.load.think)."""
    crowd_from: int = CROWD_FROM
    rematch_think: float = 0.0
    """Rematch mode: seconds a player waits, on average, after a game's last move before
    it asks for the rematch (drawn with ``think_spread``; 0: at once, the default)."""
    players_apart: bool = False
    """In crowd mode, process 0 plays every room and watches none, and the others share
    the spectators: the players' latency then carries none of the load generator's
    reading of the crowd (see ``share``)."""
    crowd: CrowdShare | None = None
    """Set in a process's share in crowd mode."""
    open_loop: float | None = None
    """Open loop (bench.load.schedule): every game's moves due this many times a second on
    a clock, instead of after a think time; None: closed loop."""

    @property
    def cells(self) -> int:
        """The most moves a game of these rules can have."""
        rules = self.rules
        return int(rules.get("rows", 3)) * int(rules.get("cols", 3)) * int(rules.get("layers", 1))

    @property
    def game_timeout(self) -> float:
        """A game not over by then counts as an error (a lost event would hang it)."""
        if self.open_loop is not None:  # every move on time takes cells / rate seconds
            return 15.0 + self.cells / self.open_loop + self.rematch_think * (1 + self.think_spread)
        return 15.0 + (12 * self.think + self.rematch_think) * (1 + self.think_spread)

    @property
    def drain(self) -> float:
        if self.open_loop is not None:
            return 3.0 + 2 / self.open_loop + self.rematch_think * (1 + self.think_spread)
        return 3.0 + (2 * self.think + self.rematch_think) * (1 + self.think_spread)

    @property
    def crowded(self) -> bool:
        """Spread every room's spectators over all the processes (see the module)."""
        return self.next == "rematch" and self.procs > 1 and self.spectators >= self.crowd_from

    @property
    def join_timeout(self) -> float:
        return 60.0 + 0.05 * self.spectators * self.games

    def share(self, index: int) -> LoadPlan:
        """Process ``index``'s part: its games (as even as can be) and its own seed; in crowd
        mode also its part of every room's spectators. With ``players_apart`` (crowd mode)
        process 0 has every game and no spectator, the others every spectator and no game:
        a player's process otherwise also reads its share of the crowd, and the opponent's
        ``moved`` waits behind those frames in the load generator, not in the server."""
        games = self.games // self.procs + (index < self.games % self.procs)
        crowd = None
        if self.crowded:
            watchers, rank = self.procs, index
            if self.players_apart:
                games = self.games if index == 0 else 0
                watchers, rank = self.procs - 1, index - 1
            each = (
                0 if rank < 0 else self.spectators // watchers + (rank < self.spectators % watchers)
            )
            crowd = CrowdShare(each, max(1, JOINING // watchers), self.join_timeout)
        return replace(self, games=games, seed=self.seed * 1000 + index, procs=1, crowd=crowd)


@dataclass(frozen=True, slots=True)
class Progress:
    elapsed: float
    moves: int
    games: int
    errors: int
    connections: int


# -- inside a load process ------------------------------------------------------------------


def settle() -> Collector:
    """Collect what setting up left behind, freeze the rest, and from now on keep the young
    frozen on the running loop's clock (see the module); ``close`` the collector at the end."""
    collector = Collector()
    collector.start()
    return collector


async def _receive(pipe: Connection, timeout: float) -> Any:
    """The parent's next message, without blocking the loop (connections keep being read)."""
    if not await asyncio.to_thread(pipe.poll, timeout):
        raise RuntimeError("the parent process did not answer in time")
    return pipe.recv()


async def _drive(plan: LoadPlan, pipe: Connection, counters: Any) -> dict[str, Any]:
    scripts = make_scripts(plan.rules, SCRIPTS, plan.seed)
    recorder = Recorder(math.inf, math.inf)  # the window is set once the start is known
    ws_base = "ws" + plan.base_url.removeprefix("http")
    # Enough keep-alive connections that creating rooms never limits how many games run
    # (a small pool and a slow create would cap the games started a second).
    http = HttpPool(plan.base_url, size=min(64, max(1, plan.games)))
    stop = asyncio.Event()
    think = Think(plan.think, plan.think_spread, random.Random(plan.seed))  # seed: per process
    # its own draws, so that the moves' think times are the same with or without it
    vote = Think(plan.rematch_think, plan.think_spread, random.Random(f"vote{plan.seed}"))

    async def ticker() -> None:
        while True:
            counters[:] = [
                recorder.moves_total,
                recorder.games,
                sum(recorder.errors.values()),
                recorder.open_now,
            ]
            await asyncio.sleep(TICK)

    tick = asyncio.create_task(ticker())
    seated: list[Seated | None] = []
    crowd: Crowd | None = None
    sends: dict[tuple[str, int, int], float] = {}
    if plan.crowd is not None:  # rooms and players first, then everyone's spectators
        seated = await together(
            *(
                seat_players(ws_base, http, plan.rules, recorder, plan.game_timeout)
                for _ in range(plan.games)
            )
        )
        pipe.send(("rooms", [s.room_id for s in seated if s is not None]))
        rooms = await _receive(pipe, plan.game_timeout + 60)
        crowd = Crowd(ws_base, recorder)
        joined = await crowd.join(
            rooms, plan.crowd.each, gate=plan.crowd.gate, timeout=plan.crowd.timeout
        )
        pipe.send(("joined", joined))
    collector = settle()
    start = await _receive(pipe, plan.crowd.timeout + 120 if plan.crowd else 120)
    t0 = start + (perf_counter() - time.monotonic())  # the parent's instant, on our clock
    recorder.start, recorder.end = t0 + plan.warmup, t0 + plan.warmup + plan.duration

    # Spread the games' starts over one game's length: started together, G games would
    # move in lock-step (a burst of G moves every think time) and end together (a storm of
    # departures, rooms and joins), instead of a steady rate of each. Open loop: over one
    # interval, so the G games' moves fall due evenly through every second.
    schedule = Schedule(plan.open_loop, recorder) if plan.open_loop is not None else None
    if plan.open_loop is not None:
        spread = 1 / plan.open_loop
    else:
        spread = plan.think * sum(len(s) for s in scripts) / len(scripts)

    async def driver(slot: int) -> None:
        await asyncio.sleep(slot * spread / max(1, plan.games))
        played = slot
        lane = schedule.lane() if schedule is not None else None

        def next_script() -> Script:
            nonlocal played
            script = scripts[played % len(scripts)]
            played += plan.games
            return script

        if plan.crowd is not None:  # the room is seated; its spectators are everywhere
            room = seated[slot]
            if room is not None:
                await play_series(
                    ws_base,
                    http,
                    plan.rules,
                    next_script,
                    spectators=0,
                    think=think,
                    recorder=recorder,
                    timeout=plan.game_timeout,
                    stop=stop,
                    seated=room,
                    sends=sends,
                    vote=vote,
                    lane=lane,
                )
            return
        while not stop.is_set():
            errors = sum(recorder.errors.values())
            if plan.next == "rematch":
                await play_series(
                    ws_base,
                    http,
                    plan.rules,
                    next_script,
                    spectators=plan.spectators,
                    think=think,
                    recorder=recorder,
                    timeout=plan.game_timeout,
                    stop=stop,
                    vote=vote,
                    lane=lane,
                )
            else:
                await play_game(
                    ws_base,
                    http,
                    plan.rules,
                    next_script(),
                    spectators=plan.spectators,
                    think=think,
                    recorder=recorder,
                    timeout=plan.game_timeout,
                    lane=lane,
                )
            if sum(recorder.errors.values()) > errors:
                await asyncio.sleep(0.1)  # a failing server must not be hammered in a loop

    await asyncio.sleep(max(0.0, t0 - perf_counter()))
    drivers = [asyncio.create_task(driver(slot)) for slot in range(plan.games)]
    await asyncio.sleep(max(0.0, recorder.start - perf_counter()))
    cpu = time.process_time()  # this process's own CPU over the window: is it the limit?
    full = collector.full
    await asyncio.sleep(max(0.0, recorder.end - perf_counter()))
    if schedule is not None:
        recorder.backlog = schedule.backlog()
    recorder.cpu_s = time.process_time() - cpu
    recorder.full_collections = collector.full - full
    stop.set()
    _, pending = await asyncio.wait(drivers, timeout=plan.drain) if drivers else (set(), set())
    recorder.unfinished = len(pending)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    crowded: dict[str, Any] = {}
    if crowd is not None:
        # Our games are over, not every process's: keep watching until the parent says all
        # are (bounded: every process's games end within the drain).
        pipe.send(("done", None))
        with contextlib.suppress(RuntimeError):
            await _receive(pipe, plan.drain + 30)
        await crowd.settle(CROWD_QUIET, CROWD_CATCH_UP)
        await crowd.stop()
        crowded = {"sends": sends, "arrivals": crowd.arrivals, "watching": crowd.watching}
    tick.cancel()
    await http.close()
    collector.close()
    return {**recorder.result(), **crowded}


def child_main(plan: LoadPlan, pipe: Connection, counters: Any) -> None:
    with contextlib.suppress(ImportError):
        import uvloop  # the load generator's own CPU is part of what limits a run

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    make_scripts(plan.rules, 1, plan.seed)  # fail here, before "ready", on bad rules
    pipe.send(("ready", None))
    pipe.send(("result", asyncio.run(_drive(plan, pipe, counters))))
    pipe.close()
