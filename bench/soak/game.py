"""One soak game: a room, its spectators and two players on random servers, a fixed script.

The room is created over HTTP (retried until some server answers), the spectators join,
then X and O take their seats with a plain ``join`` and play ``SCRIPT`` to its end: each
mover waits until it has seen the opponent's last move, then plays against the version it
knows, retrying through every fault (``Client.play``). The game ends ``finished``,
``stuck`` (not finished within the bound, or refused for good, with the reason) or
``orphaned`` (a seat-taking ``join`` lost its ``welcome``: the seat went to nobody who can
play it, a gap of the protocol without an idempotent join, counted apart and not as stuck).
The bound is on time the system was whole: seconds spent on a fault's recovery (a server or
Redis coming back, however long that takes on a busy machine) are added to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any

from bench.load.http import HttpError, HttpPool

from .check import Ack, Cell, StoredGame
from .client import Client, Orphaned, Refused
from .tally import Tally, Targets

__all__ = ["PLAYERS", "RULES", "SCRIPT", "GameLog", "play_game"]

RULES: dict[str, Any] = {"rows": 5, "cols": 5, "k": 5}
SCRIPT = [(row, (row * 2 + step) % 5) for row in range(5) for step in range(5)]
"""25 moves on 5×5 with k=5 that fill the board with no five in a line: every move is
played and the game ends, drawn, at the last one (each row shifts the columns by two)."""
PLAYERS = ("Xena", "Otto")
"""The names of a game's X and O (its spectators are ``watcher0``, ``watcher1``...)."""
WATCH_WAIT = 15.0
"""Seconds the spectators get, after the last move, to see it (else they are "behind"),
plus the seconds faults took to recover meanwhile, as for the game's own bound: a spectator
of a server cut off from Redis hears nothing until that server finds its lease lapsed
(10 to 15 s after the cut with the 15 s lease) and closes so that it resumes elsewhere."""


@dataclass(eq=False, slots=True)
class GameLog:
    number: int
    room_id: str | None = None
    outcome: str = "running"
    """``running``, ``finished``, ``stuck`` or ``orphaned``."""
    reason: str | None = None
    faults: set[str] = field(default_factory=set)
    """Every fault kind injected while this game was in play."""
    stage: str = "creating the room"
    """Where the game is: creating the room, seating, at move N, watching the end."""
    played: int = 0
    acks: list[Ack] = field(default_factory=list)
    """Both players' ``move_ok``s, in the order they arrived."""
    refused: dict[str, Cell] = field(default_factory=dict)
    behind: int = 0
    """Spectators that never saw the last move."""
    behind_trails: list[str] = field(default_factory=list)
    """Each such spectator's last messages (``Client.trail``), to tell how it fell behind."""
    record: StoredGame | None = None
    seated: dict[str, list[tuple[str, float]]] = field(default_factory=dict)
    """Each client's (by name: ``PLAYERS``, then the spectators) servers of its
    ``welcome``s and their ``time.monotonic()`` (``Client.seated``)."""
    apart: int = 0
    """Moves acknowledged while the two players were joined on different servers."""


async def http_call(
    targets: Targets, method: str, path: str, body: dict[str, Any] | None, want: int
) -> Any:
    """One request to a random live server, retried (another server, backoff) until one
    answers ``want``; the caller bounds the time."""
    pause = 0.05
    rng = random.Random()
    while True:
        url = targets.pick()
        if url is not None:
            pool = HttpPool(url, size=1, timeout=5.0)
            try:
                status, data = await pool.request(method, path, body)
                if status == want:
                    return data
            except (HttpError, OSError, TimeoutError, ValueError):
                pass
            finally:
                await pool.close()
        await asyncio.sleep(pause * (0.5 + rng.random()))
        pause = min(pause * 2, 1.0)


async def play_game(
    log: GameLog,
    targets: Targets,
    tally: Tally,
    *,
    spectators: int,
    think: float,
    timeout: float,
    outage: Callable[[], float] = lambda: 0.0,
) -> None:
    """Play one game into ``log`` (never raises on a fault). Bounded by ``timeout`` seconds
    plus the growth of ``outage()`` meanwhile: the seconds faults took to recover."""
    clients: list[Client] = []
    rng = random.Random(log.number)

    async def play() -> None:
        created = await http_call(targets, "POST", "/api/rooms", {"rules": RULES}, 201)
        log.room_id = room_id = str(created["room_id"])
        log.stage = "seating"
        watchers = [
            Client(room_id, "spectator", f"watcher{i}", targets, tally) for i in range(spectators)
        ]
        clients.extend(watchers)
        await asyncio.gather(*(watcher.join() for watcher in watchers))
        x, o = (Client(room_id, "player", name, targets, tally, acks=log.acks) for name in PLAYERS)
        clients.extend((x, o))
        await x.join(expect_mark="X")
        welcome = await o.join(expect_mark="O")
        last = int(welcome["version"])
        for index, (row, col) in enumerate(SCRIPT):
            log.stage = f"move {index}"
            mover = x if index % 2 == 0 else o
            await mover.seen(last)
            if think:
                await asyncio.sleep(rng.uniform(0, 2 * think))
            reply = await mover.play(row, col, f"{mover.mark}{index:02d}")
            here, there = mover.server, (o if mover is x else x).server
            if here is not None and there is not None and here != there:
                log.apart += 1
            last = int(reply["version"])
            log.played = index + 1
        log.stage = "watching the end"
        try:
            await _bounded(_all_seen(watchers, last), WATCH_WAIT, outage)
        except TimeoutError:
            late = [w for w in watchers if w.version is None or w.version < last]
            log.behind = len(late)
            log.behind_trails = [
                f"{w.name} at version {w.version} of {last}: " + " | ".join(w.trail) for w in late
            ]

    try:
        await _bounded(play(), timeout, outage)
        log.outcome = "finished"
    except Orphaned as exc:
        log.outcome, log.reason = "orphaned", f"orphaned at join: {exc}"
    except Refused as exc:
        log.outcome = "stuck"
        log.reason = (
            f"{exc.code} {exc.message!r} during {log.stage}; "
            f"the client's last messages: {' | '.join(exc.trail)}"
        )
    except TimeoutError:
        failures = [c.failure for c in clients if c.failure]
        # what each player last sent and heard tells a lost event from a lost answer
        trails = [
            f"{c.name} at version {c.version}: " + " | ".join(c.trail)
            for c in clients
            if c.role == "player"
        ]
        log.outcome = "stuck"
        log.reason = (
            f"not finished within {timeout:g} s, stopped during {log.stage}"
            + (f" ({'; '.join(failures)})" if failures else "")
            + (f"; the players' last messages: {' || '.join(trails)}" if trails else "")
        )
    finally:
        for client in clients:
            log.seated[client.name] = client.seated
            if client.role == "player":
                log.refused.update(client.refused)
        await asyncio.gather(*(client.close() for client in clients), return_exceptions=True)


async def _all_seen(watchers: list[Client], version: int) -> None:
    await asyncio.gather(*(watcher.seen(version) for watcher in watchers))


async def _bounded(
    work: Coroutine[Any, Any, None], timeout: float, outage: Callable[[], float]
) -> None:
    """``work`` within ``timeout`` seconds plus the outage seconds accrued meanwhile
    (TimeoutError otherwise, ``work`` cancelled)."""
    task = asyncio.ensure_future(work)
    started, outage_then = time.monotonic(), outage()
    try:
        while True:
            left = started + timeout + (outage() - outage_then) - time.monotonic()
            if left <= 0:
                raise TimeoutError
            done, _ = await asyncio.wait({task}, timeout=left)
            if done:
                return task.result()
    finally:
        if not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
