"""The soak's play: ``games`` games kept in play (each finished game followed by a new one)
while the asked faults are injected one at a time, in a seeded random order, each once the
system is whole again after the last; then the games in play finish and every room's record
is read back from the store. ``play_soak`` returns what was played (``Played``) for
bench.soak.run to judge and report.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import sys
import time
from collections import Counter
from dataclasses import dataclass, field

from .faults import Injector, wait_all_ready
from .game import GameLog, play_game
from .options import WARMUP, SoakOptions
from .processes import StartFailed
from .records import RecordReader
from .tally import Tally, Targets

__all__ = ["Outage", "Played", "play_soak", "say"]

RECORD_TIMEOUT = 60.0
PLAY_WITHOUT_FAULTS = 60.0
"""Seconds a soak with no fault to inject plays when no ``duration`` is given."""


@dataclass(slots=True)
class Outage:
    """Seconds the system spent recovering from faults (a game's bound grows by them)."""

    total: float = 0.0
    since: float | None = None

    def __call__(self) -> float:
        return self.total + (0.0 if self.since is None else time.monotonic() - self.since)

    def begin(self) -> None:
        self.since = time.monotonic()

    def end(self) -> float:
        assert self.since is not None
        took = time.monotonic() - self.since
        self.total, self.since = self.total + took, None
        return took


@dataclass(slots=True)
class Played:
    """What ``play_soak`` played: every game's log, the fault counts and recoveries."""

    games: list[GameLog]
    tally: Tally
    injected: Counter[str]
    recoveries: dict[str, list[float]]
    not_recovered: list[str]
    seconds: float
    records: str = "store"
    outage: Outage = field(default_factory=Outage)


def _schedule(options: SoakOptions) -> list[str]:
    faults = [kind for kind, count in options.asked().items() for _ in range(count)]
    random.Random(options.seed).shuffle(faults)
    return faults


def say(options: SoakOptions, text: str) -> None:
    """A progress line on stderr, unless the soak is ``quiet``."""
    if not options.quiet:
        print(f"tictactoe soak: {text}", file=sys.stderr, flush=True)


def _pause(options: SoakOptions, deadline: float | None, left: int) -> float:
    """Play before the next fault: ``interval``, or an even share of the time left until
    ``deadline`` among the ``left`` faults still to come and the quiet end."""
    if deadline is None:
        return options.interval
    return max(options.interval, (deadline - time.monotonic()) / (left + 1))


async def play_soak(
    options: SoakOptions, targets: Targets, injector: Injector, store_url: str | None
) -> Played:
    tally = Tally()
    games: list[GameLog] = []
    active: set[GameLog] = set()
    stopping = asyncio.Event()
    numbers = iter(range(1, 10**9))
    in_progress: list[str] = []  # the fault being injected, while it is
    outage = Outage()
    started = tally.started
    deadline = None if options.duration is None else started + options.duration

    async def slot() -> None:
        while not stopping.is_set():
            log = GameLog(next(numbers), faults=set(in_progress))
            games.append(log)
            active.add(log)
            try:
                await play_game(
                    log,
                    targets,
                    tally,
                    spectators=options.spectators,
                    think=options.think,
                    timeout=options.game_timeout,
                    outage=outage,
                )
            finally:
                active.discard(log)

    slots = [asyncio.create_task(slot()) for _ in range(options.games)]
    injected: Counter[str] = Counter()
    recoveries: dict[str, list[float]] = {}
    not_recovered: list[str] = []
    try:
        await asyncio.sleep(WARMUP)
        schedule = _schedule(options)
        for index, kind in enumerate(schedule, 1):
            tally.current = kind
            in_progress.append(kind)
            for log in active:
                log.faults.add(kind)
            say(
                options,
                f"{time.monotonic() - started:5.0f} s  fault {index}/{len(schedule)}: {kind}  "
                f"({len(games)} games so far)",
            )
            outage.begin()
            began = time.monotonic()
            try:
                await asyncio.to_thread(injector.inject, kind)
            except StartFailed as exc:
                tally.injected(kind, began, outage.end())
                not_recovered.append(f"fault {index} ({kind}): {exc}")
                say(options, f"{kind}: the system did not come back; no more faults: {exc}")
                break
            finally:
                in_progress.clear()
            recovered = outage.end()
            tally.injected(kind, began, recovered)
            recoveries.setdefault(kind, []).append(recovered)
            injected[kind] += 1
            await asyncio.sleep(_pause(options, deadline, len(schedule) - index))
        if deadline is not None and not not_recovered:  # play on to the end of --duration
            await asyncio.sleep(max(0.0, deadline - time.monotonic()))
        elif not schedule:  # a soak with no faults plays all the same
            await asyncio.sleep(PLAY_WITHOUT_FAULTS)
        stopping.set()
        say(options, f"faults done; finishing {len(active)} games in play")
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(asyncio.gather(*slots), options.game_timeout + 30)
    finally:
        stopping.set()
        for task in slots:
            task.cancel()
        await asyncio.gather(*slots, return_exceptions=True)
    for log in games:
        if log.outcome == "running":  # cut off at the end: it did not finish in time either
            log.outcome, log.reason = "stuck", f"still in play at the end, during {log.stage}"
    seconds = time.monotonic() - started
    say(options, f"reading {len(games)} records from the store")
    with contextlib.suppress(StartFailed):  # a server that never came back: read from the rest
        await asyncio.to_thread(wait_all_ready, injector.urls, options.restart_limit)
    gate = asyncio.Semaphore(8)
    async with RecordReader(targets, store_url) as reader:

        async def read(log: GameLog) -> None:
            if log.room_id is None or log.outcome == "orphaned":
                return
            async with gate:
                with contextlib.suppress(TimeoutError):  # unread: judged missing
                    log.record = await asyncio.wait_for(reader.read(log.room_id), RECORD_TIMEOUT)

        await asyncio.gather(*(read(log) for log in games))
    return Played(games, tally, injected, recoveries, not_recovered, seconds, reader.source, outage)
