"""Load processes: each plays its share of the games; the parent starts, watches and joins.

The load runs in processes of its own (``procs`` of them, started with ``spawn`` so a
parent with threads, such as pytest, is safe), never in the process that samples the
server. Every process prepares its scripted games, says it is ready, and starts at the
same ``time.monotonic()`` instant chosen by the parent (one clock for the whole machine),
so the measured windows line up. Each one stops by itself: no new game after the window,
the games in flight get ``drain`` seconds to finish, then are cancelled.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from multiprocessing.connection import Connection
from time import perf_counter
from typing import Any

from .game import play_game
from .http import HttpPool
from .recorder import Recorder, merge
from .scripts import make_scripts

__all__ = ["LoadPlan", "Progress", "run_load"]

SCRIPTS = 1000  # distinct pre-played games per process (cycled)
TICK = 0.25  # seconds between progress updates


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

    @property
    def game_timeout(self) -> float:
        """A game not over by then counts as an error (a lost event would hang it)."""
        return 15.0 + 12 * self.think

    @property
    def drain(self) -> float:
        return 3.0 + 2 * self.think

    def share(self, index: int) -> LoadPlan:
        """Process ``index``'s part: its games (as even as can be) and its own seed."""
        games = self.games // self.procs + (index < self.games % self.procs)
        return replace(self, games=games, seed=self.seed * 1000 + index, procs=1)


@dataclass(frozen=True, slots=True)
class Progress:
    elapsed: float
    moves: int
    games: int
    errors: int
    connections: int


# -- inside a load process ------------------------------------------------------------------

async def _drive(plan: LoadPlan, start: float, counters: Any) -> dict[str, Any]:
    scripts = make_scripts(plan.rules, SCRIPTS, plan.seed)
    t0 = start + (perf_counter() - time.monotonic())  # the parent's instant, on our clock
    recorder = Recorder(t0 + plan.warmup, t0 + plan.warmup + plan.duration)
    ws_base = "ws" + plan.base_url.removeprefix("http")
    # Enough keep-alive connections that creating rooms never limits how many games run
    # (with 8, a server whose create takes 50 ms could start only 160 games a second).
    http = HttpPool(plan.base_url, size=min(64, max(1, plan.games)))
    stop = asyncio.Event()

    # Spread the games' starts over one game's length: started together, G games would
    # move in lock-step (a burst of G moves every think time) and end together (a storm of
    # departures, rooms and joins), instead of a steady rate of each.
    spread = plan.think * sum(len(s) for s in scripts) / len(scripts)

    async def driver(slot: int) -> None:
        await asyncio.sleep(slot * spread / max(1, plan.games))
        played = slot
        while not stop.is_set():
            errors = sum(recorder.errors.values())
            await play_game(
                ws_base, http, plan.rules, scripts[played % len(scripts)],
                spectators=plan.spectators, think=plan.think, recorder=recorder,
                timeout=plan.game_timeout,
            )
            played += plan.games
            if sum(recorder.errors.values()) > errors:
                await asyncio.sleep(0.1)  # a failing server must not be hammered in a loop

    async def ticker() -> None:
        while True:
            counters[:] = [
                recorder.moves_total, recorder.games, sum(recorder.errors.values()),
                recorder.open_now,
            ]
            await asyncio.sleep(TICK)

    await asyncio.sleep(max(0.0, t0 - perf_counter()))
    tick = asyncio.create_task(ticker())
    drivers = [asyncio.create_task(driver(slot)) for slot in range(plan.games)]
    await asyncio.sleep(max(0.0, recorder.start - perf_counter()))
    cpu = time.process_time()  # this process's own CPU over the window: is it the limit?
    await asyncio.sleep(max(0.0, recorder.end - perf_counter()))
    recorder.cpu_s = time.process_time() - cpu
    stop.set()
    _, pending = await asyncio.wait(drivers, timeout=plan.drain) if drivers else (set(), set())
    recorder.unfinished = len(pending)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)
    tick.cancel()
    await http.close()
    return recorder.result()


def _child(plan: LoadPlan, pipe: Connection, counters: Any) -> None:
    with contextlib.suppress(ImportError):
        import uvloop  # the load generator's own CPU is part of what limits a run

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    make_scripts(plan.rules, 1, plan.seed)  # fail here, before "ready", on bad rules
    pipe.send("ready")
    start = pipe.recv()
    pipe.send(asyncio.run(_drive(plan, start, counters)))
    pipe.close()


# -- in the parent --------------------------------------------------------------------------

def run_load(
    plan: LoadPlan,
    *,
    on_tick: Callable[[Progress], None] | None = None,
    on_window: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run ``plan`` in ``plan.procs`` processes; the merged result of all of them.

    ``on_window("start")`` and ``on_window("end")`` are called as the measured window
    opens and closes (to sample the server's CPU there); ``on_tick`` every quarter second.
    """
    context = multiprocessing.get_context("spawn")
    children = []
    for index in range(plan.procs):
        mine, theirs = context.Pipe()
        counters = context.Array("q", 4, lock=False)
        process = context.Process(
            target=_child, args=(plan.share(index), theirs, counters), daemon=True,
            name=f"bench-load-{index}",
        )
        process.start()
        theirs.close()
        children.append((process, mine, counters))
    try:
        for process, pipe, _ in children:
            if not pipe.poll(120) or pipe.recv() != "ready":
                raise RuntimeError(f"load process {process.name} did not get ready")
        start = time.monotonic() + 0.2
        for _, pipe, _ in children:
            pipe.send(start)
        marks = [(start + plan.warmup, "start"), (start + plan.warmup + plan.duration, "end")]
        deadline = marks[-1][0] + plan.drain + 60
        results: dict[int, dict[str, Any]] = {}
        while len(results) < len(children):
            now = time.monotonic()
            if now > deadline:
                raise RuntimeError("load processes did not finish in time")
            while marks and now >= marks[0][0]:
                if on_window is not None:
                    on_window(marks[0][1])
                marks.pop(0)
            if on_tick is not None:
                totals = [sum(c[2][i] for c in children) for i in range(4)]
                on_tick(Progress(now - start, *totals))
            wait = min([TICK, *(when - now for when, _ in marks)])
            for index, (process, pipe, _) in enumerate(children):
                if index not in results and pipe.poll(max(0.0, wait) / len(children)):
                    results[index] = pipe.recv()
                elif index not in results and not process.is_alive():
                    raise RuntimeError(f"load process {process.name} died: {process.exitcode}")
        if on_window is not None:
            for _, name in marks:
                on_window(name)
        return merge(results.values())
    finally:
        for process, pipe, _ in children:
            pipe.close()
            process.join(5)
            if process.is_alive():
                process.kill()
                process.join(5)
