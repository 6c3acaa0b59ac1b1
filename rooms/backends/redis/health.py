"""The health watch of a pub/sub connection, at a cost per health interval, not per message.

The bus reader (``bus``) reads with no deadline, sparing a timer armed and cancelled around
every read. Instead it runs inside ``async with HealthWatch(...) as watch`` and notes when it
last heard from Redis (``watch.heard = loop.time()``); one timer, re-armed about once per
``interval``, looks at it:

- nothing heard for ``interval``: send ``ping`` (its reply counts as heard), and again every
  ``interval`` while the silence lasts;
- nothing heard for ``timeout``: cancel the block, which raises
  ``redis.exceptions.TimeoutError("no reply from Redis for ...")`` (the reader reconnects).

Leaving the block, however it ends, cancels the timer and any PING still being sent.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from types import TracebackType

from redis import exceptions as rx

__all__ = ["HealthWatch"]


class HealthWatch:
    __slots__ = (
        "_deadline",
        "_handle",
        "_interval",
        "_loop",
        "_ping",
        "_pinging",
        "_timeout",
        "heard",
        "silent",
    )
    _loop: asyncio.AbstractEventLoop  # the running loop, from ``__aenter__``

    def __init__(
        self, *, interval: float, timeout: float, ping: Callable[[], Awaitable[None]]
    ) -> None:
        self._interval = interval
        self._timeout = max(timeout, interval)
        self._ping = ping
        self._pinging: asyncio.Future[None] | None = None
        self._deadline = asyncio.timeout_at(None)  # expired by the watch, never by itself
        self._handle: asyncio.TimerHandle | None = None
        self.heard = 0.0
        """When the reader last heard from Redis (the loop's clock); the reader sets it."""
        self.silent: float | None = None
        """How long Redis had been silent when the watch gave up (None: it did not)."""

    async def __aenter__(self) -> HealthWatch:
        self._loop = asyncio.get_running_loop()
        await self._deadline.__aenter__()
        self.heard = self._loop.time()
        self._handle = self._loop.call_at(self.heard + self._interval, self._check)
        return self

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        if self._pinging is not None:
            self._pinging.cancel()
            self._pinging = None
        try:
            await self._deadline.__aexit__(kind, exc, tb)
        except TimeoutError:
            if self.silent is None:
                raise
            raise rx.TimeoutError(f"no reply from Redis for {self.silent:.1f}s") from None

    def _check(self) -> None:
        now = self._loop.time()
        heard = self.heard
        quiet = now - heard
        if quiet >= self._timeout:
            self._handle = None
            self.silent = quiet
            self._deadline.reschedule(now)  # cancels the block on the next loop turn
            return
        if quiet >= self._interval:
            if self._pinging is None or self._pinging.done():
                self._pinging = asyncio.ensure_future(self._ping())
            at = now + self._interval
        else:  # heard meanwhile: look again an interval after that
            at = heard + self._interval
        self._handle = self._loop.call_at(min(at, heard + self._timeout), self._check)
