"""Admission: a worker whose event loop runs late takes no new rooms, seats or spectators.

Past saturation every message waits in the loop's queue, and each newcomer lengthens the
wait for everyone already playing. ``LoopLag`` wakes every ``INTERVAL`` seconds and
measures how late it woke (the lag every callback of the loop is seeing), exported as
``tictactoe_event_loop_lag_seconds``. When every wake-up of the last ``WINDOW`` seconds was
at least ``threshold`` late (a sustained overload, not one slow callback), ``check`` refuses
what adds load: a new room, a quick play, a new guest identity, a ``join`` without a token (a
new seat or a spectator), each with ``unavailable`` and a ``retry_after``. A player resuming a
seat with its token, a spectator resuming with ``last_version`` and every command of a
joined connection always pass: the games in
progress are what the refusal protects. A threshold of 0 turns admission off (the lag is
still measured).
"""

from __future__ import annotations

import asyncio
from collections import deque

from rooms import ErrorCode, RoomError
from rooms.common.tasks import cancel_all

from ..metrics.families import ADMISSION_REFUSALS, LOOP_LAG

__all__ = ["INTERVAL", "WINDOW", "LoopLag"]

INTERVAL = 0.1
"""Seconds between wake-ups: 10 callbacks a second, nothing next to a move's cost."""
WINDOW = 1.0
"""Seconds of wake-ups that must all be late for the worker to count as overloaded."""
RETRY_AFTER = 1.0
"""Seconds a refused client waits before trying again (the window: the soonest the
verdict can change)."""


class LoopLag:
    """This worker's event-loop lag, and the admission check that rests on it."""

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold
        self._samples: deque[tuple[float, float]] = deque()  # (when, how late), the window's
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.create_task(self._watch(), name="loop-lag")

    async def close(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            await cancel_all([task])

    async def _watch(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + INTERVAL
            await asyncio.sleep(INTERVAL)
            now = loop.time()
            self.observe(now, max(now - due, 0.0))

    def observe(self, now: float, late: float) -> None:
        """One wake-up, ``late`` seconds after it was due."""
        samples = self._samples
        samples.append((now, late))
        while samples and samples[0][0] < now - WINDOW:
            samples.popleft()
        LOOP_LAG.set(max(lag for _, lag in samples))

    @property
    def overloaded(self) -> bool:
        """Every wake-up of the last window was at least ``threshold`` late."""
        samples = self._samples
        return (
            self.threshold > 0
            and bool(samples)
            and min(lag for _, lag in samples) >= self.threshold
        )

    def check(self, what: str) -> None:
        """Refuse ``what`` (``room``, ``quickplay``, ``player``, ``join``) with ``unavailable``
        when the worker is overloaded."""
        if not self.overloaded:
            return
        ADMISSION_REFUSALS.labels(what).inc()
        late = min(lag for _, lag in self._samples)
        raise RoomError(
            ErrorCode.UNAVAILABLE,
            f"this server is overloaded (it runs {late:.2f} s late); try again in "
            f"{RETRY_AFTER:g} s",
            retry_after=RETRY_AFTER,
        )
