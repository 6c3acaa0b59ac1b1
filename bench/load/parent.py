"""The parent of the load processes: start them, take them through their steps, join up.

Every child says ``ready``. In crowd mode (``LoadPlan.crowded``) each then makes and seats its
rooms and sends their ids; the parent hands every room's id to all, and each joins its share of
the spectators and says how many joined. The parent then sends the start instant
(``time.monotonic()``, one clock for the machine). At the end a crowd child says ``done`` and
keeps watching until every child is done, so no process stops reading while another's last moves
are on their way. The parent merges the results (in crowd mode, joining send and arrival times
into latencies). Every wait is bounded.
"""

from __future__ import annotations

import multiprocessing
import time
from collections.abc import Callable
from dataclasses import dataclass
from multiprocessing.connection import Connection
from typing import Any

from .crowd import deliveries
from .recorder import merge
from .worker import TICK, LoadPlan, Progress, child_main

__all__ = ["run_load"]


@dataclass(slots=True)
class _Child:
    process: Any  # multiprocessing's SpawnProcess (its type is not public)
    pipe: Connection
    counters: Any


def _totals(children: list[_Child]) -> list[int]:
    return [sum(c.counters[i] for c in children) for i in range(4)]


def _collect(
    children: list[_Child], kind: str, timeout: float, tick: Callable[[], None]
) -> list[Any]:
    """One ``kind`` message from every child (their payloads, in child order)."""
    payloads: dict[int, Any] = {}
    deadline = time.monotonic() + timeout
    while len(payloads) < len(children):
        if time.monotonic() > deadline:
            raise RuntimeError(f"load processes did not send {kind!r} within {timeout:.0f} s")
        tick()
        for index, child in enumerate(children):
            if index in payloads:
                continue
            if child.pipe.poll(TICK / len(children)):
                got, payload = child.pipe.recv()
                if got != kind:
                    raise RuntimeError(f"{child.process.name} sent {got!r}, not {kind!r}")
                payloads[index] = payload
            elif not child.process.is_alive():
                raise RuntimeError(
                    f"load process {child.process.name} died: {child.process.exitcode}"
                )
    return [payloads[index] for index in range(len(children))]


def run_load(
    plan: LoadPlan,
    *,
    on_tick: Callable[[Progress], None] | None = None,
    on_window: Callable[[str], None] | None = None,
) -> dict[str, Any]:
    """Run ``plan`` in ``plan.procs`` processes; the merged result of all of them.

    ``on_window("start")`` and ``on_window("end")`` are called as the measured window
    opens and closes (to sample the server's CPU there); ``on_tick`` every quarter second
    (elapsed 0 while a crowd is joining).
    """
    context = multiprocessing.get_context("spawn")
    children: list[_Child] = []
    for index in range(plan.procs):
        mine, theirs = context.Pipe()
        counters = context.Array("q", 4, lock=False)
        process = context.Process(
            target=child_main,
            args=(plan.share(index), theirs, counters),
            daemon=True,
            name=f"bench-load-{index}",
        )
        process.start()
        theirs.close()
        children.append(_Child(process, mine, counters))

    def joining() -> None:
        if on_tick is not None:
            on_tick(Progress(0.0, *_totals(children)))

    try:
        _collect(children, "ready", 120, lambda: None)
        if plan.crowded:
            rooms = [
                room
                for ids in _collect(children, "rooms", plan.game_timeout + 30, joining)
                for room in ids
            ]
            for child in children:
                child.pipe.send(rooms)
            _collect(children, "joined", plan.join_timeout + 30, joining)
        start = time.monotonic() + 0.2
        for child in children:
            child.pipe.send(start)
        marks = [(start + plan.warmup, "start"), (start + plan.warmup + plan.duration, "end")]
        deadline = marks[-1][0] + 2 * plan.drain + 90
        results: dict[int, dict[str, Any]] = {}
        done: set[int] = set()
        while len(results) < len(children):
            now = time.monotonic()
            if now > deadline:
                raise RuntimeError("load processes did not finish in time")
            while marks and now >= marks[0][0]:
                if on_window is not None:
                    on_window(marks[0][1])
                marks.pop(0)
            if on_tick is not None:
                on_tick(Progress(now - start, *_totals(children)))
            wait = min([TICK, *(when - now for when, _ in marks)])
            for index, child in enumerate(children):
                if index not in results and child.pipe.poll(max(0.0, wait) / len(children)):
                    kind, payload = child.pipe.recv()
                    if kind == "done":
                        done.add(index)
                        if len(done) == len(children):  # every game over: stop watching
                            for each in children:
                                each.pipe.send("stop")
                    else:
                        results[index] = payload
                elif index not in results and not child.process.is_alive():
                    raise RuntimeError(
                        f"load process {child.process.name} died: {child.process.exitcode}"
                    )
        if on_window is not None:
            for _, name in marks:
                on_window(name)
        merged = merge(results.values())
        if plan.crowded:
            joined = deliveries(results.values())
            merged["spectator"].extend(joined.pop("spectator"))
            if joined["early"]:
                merged["errors"]["arrived_before_sent"] = joined["early"]
            merged["crowd"] = joined
        return merged
    finally:
        for child in children:
            child.pipe.close()
            child.process.join(5)
            if child.process.is_alive():
                child.process.kill()
                child.process.join(5)
