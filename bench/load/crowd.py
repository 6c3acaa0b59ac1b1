"""Crowd mode: one room's spectators spread over every load process, joined up afterwards.

Read by one process, a large crowd takes each ``moved`` one spectator after another, and the
last ones' latency would be the load generator's, not the server's. In crowd mode (rematch mode,
``procs`` above 1, many spectators a game) each process owns some rooms, made and seated before
the run, and also joins its share of the spectators of *every* room. The owner records the send
time of each move inside the window under ``(room, game number, ply)``; a spectator records each
``moved``'s arrival under the same key; the parent joins the two afterwards (``deliveries``).

A spectator takes one event per turn of the loop (``_watch``), so everyone's first event is
taken before anyone's second, as if each had a machine of its own; without that, the websockets
client's queued frames would let one reader take a game's last three events in one go. It yields
only when another event is queued, since a yield after every event costs more than the
reordering gains. Times from two processes may be subtracted: on Linux ``time.perf_counter()``
and ``time.monotonic()`` both read CLOCK_MONOTONIC (tests/bench/test_bench_rematch.py checks
it).
"""

from __future__ import annotations

import asyncio
import contextlib
from array import array
from collections.abc import Iterable
from time import perf_counter
from typing import Any

from websockets.asyncio.client import ClientConnection

from .game import GameFailed, close, counting_errors, gated, join, message
from .http import HttpPool
from .recorder import Recorder
from .series import Seated

__all__ = ["Crowd", "deliveries", "seat_players"]

Key = tuple[str, int, int]  # (room id, game number in the room from 0, ply)


async def seat_players(
    ws_base: str, http: HttpPool, rules: dict[str, Any], recorder: Recorder, timeout: float
) -> Seated | None:
    """A new room with its two players joined (None, counted as an error, if that failed)."""
    opened: list[ClientConnection] = []
    seated: Seated | None = None
    with counting_errors(recorder):
        async with asyncio.timeout(timeout):
            room_id = await http.create_room(rules)
            url = f"{ws_base}/ws/{room_id}"
            versions = [await join(url, "player", recorder, opened) for _ in range(2)]
        seated = Seated(room_id, opened, max(versions))
    if seated is None:
        await asyncio.gather(*(close(ws, recorder) for ws in opened))
    return seated


class Crowd:
    """This process's spectators of every room of the run, recording arrivals by key."""

    def __init__(self, ws_base: str, recorder: Recorder) -> None:
        self.ws_base = ws_base
        self.recorder = recorder
        self.arrivals: dict[Key, array[float]] = {}
        self.watching: dict[str, int] = {}
        """Spectators joined per room."""
        self._opened: list[ClientConnection] = []
        self._tasks: list[asyncio.Task[None]] = []
        self.last = perf_counter()
        """When a spectator last took a ``moved``."""

    async def join(self, rooms: Iterable[str], each: int, *, gate: int, timeout: float) -> int:
        """``each`` spectators in every room, ``gate`` at a time per room, each reading from
        its welcome on; how many joined (a failed join is counted as an error)."""

        async def one(room_id: str) -> None:
            opened: list[ClientConnection] = []
            with counting_errors(self.recorder):
                url = f"{self.ws_base}/ws/{room_id}/watch"  # the spectators' path
                await join(url, "spectator", self.recorder, opened)
                self.watching[room_id] = self.watching.get(room_id, 0) + 1
                self._tasks.append(asyncio.create_task(self._watch(opened[0], room_id)))
            self._opened.extend(opened)

        async def room(room_id: str) -> None:
            self.watching.setdefault(room_id, 0)
            door = asyncio.Semaphore(gate)
            await asyncio.gather(*(gated(door, lambda: one(room_id)) for _ in range(each)))

        rooms = list(rooms)
        try:
            async with asyncio.timeout(timeout):
                await asyncio.gather(*(room(room_id) for room_id in rooms))
        except TimeoutError:
            self.recorder.error("crowd_join_timeout")
        return sum(self.watching.values())

    async def _watch(self, ws: ClientConnection, room_id: str) -> None:
        recorder, arrivals = self.recorder, self.arrivals
        number = ply = 0
        last = -1
        with counting_errors(recorder):
            async for text in ws:
                event = message(text)
                kind = event.get("type")
                if kind == "moved":
                    now = self.last = perf_counter()
                    version = int(event["version"])
                    if version <= last:
                        raise GameFailed("moved_out_of_order")
                    last = version
                    if now >= recorder.start:  # a move sent inside the window arrives after
                        key = (room_id, number, ply)
                        times = arrivals.get(key)
                        if times is None:
                            times = arrivals[key] = array("d")
                        times.append(now)
                    ply += 1
                elif kind == "new_game":
                    number, ply = number + 1, 0
                elif kind == "error":
                    raise GameFailed(f"error:{event.get('code')}")
                if _queued(ws):  # the other spectators' earlier events first
                    await asyncio.sleep(0)
            raise GameFailed("closed_by_server")

    async def settle(self, quiet: float, bound: float) -> None:
        """Until no spectator took a ``moved`` for ``quiet`` seconds (at most ``bound``): the
        readers of a big crowd on a busy machine may still be behind the server's last
        events when every game is over, and what they have not read yet is not missed."""
        deadline = perf_counter() + bound
        while perf_counter() - self.last < quiet and perf_counter() < deadline:
            await asyncio.sleep(min(quiet, 0.1))

    async def stop(self) -> None:
        for task in self._tasks:
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        with contextlib.suppress(Exception):
            await asyncio.gather(*(close(ws, self.recorder) for ws in self._opened))


def _queued(ws: ClientConnection) -> int:
    """Frames the client holds already, not yet taken (the websockets client's own queue,
    ``recv_messages.frames``; 1 when a version has none, so that the reader yields)."""
    frames = getattr(getattr(ws, "recv_messages", None), "frames", None)
    return len(frames) if frames is not None else 1


def deliveries(results: Iterable[dict[str, Any]]) -> dict[str, Any]:
    """The processes' send and arrival times joined: a spectator latency per delivery of a
    move sent inside the window, how many deliveries were expected (every spectator of the
    room, for every such move) and how many never arrived, and arrivals *before* their send
    (impossible on one clock: counted, to be seen)."""
    results = list(results)
    sends: dict[Key, float] = {}
    watching: dict[str, int] = {}
    for result in results:
        sends.update(result.get("sends", {}))
        for room_id, count in result.get("watching", {}).items():
            watching[room_id] = watching.get(room_id, 0) + count
    latencies: array[float] = array("d")
    early = 0
    for result in results:
        for key, times in result.get("arrivals", {}).items():
            sent = sends.get(key)
            if sent is None:  # sent before or after the window
                continue
            for arrived in times:
                if arrived < sent:
                    early += 1
                else:
                    latencies.append(arrived - sent)
    expected = sum(watching.get(room_id, 0) for room_id, _, _ in sends)
    return {
        "spectator": latencies,
        "expected": expected,
        "missed": expected - len(latencies) - early,
        "early": early,
        "watchers": sum(watching.values()),
        "rooms": len(watching),
    }
