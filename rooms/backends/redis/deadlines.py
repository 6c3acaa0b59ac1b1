"""Deadlines of the hot store calls at a cost per interval, not per call.

Every store call runs under a deadline (``timeout`` seconds, retries included; ``guarded`` in
``connect``). An ``asyncio.timeout`` per call arms and cancels a timer around every call, though
almost none comes near its deadline; ``Deadlines`` keeps all blocks sharing one timeout under
ONE timer, as ``health``'s HealthWatch does for the pub/sub reader.

- ``async with deadlines.guard(what):`` appends the block's task and deadline to a deque, which
  is in deadline order since all share the timeout; a block that ends is only marked gone, with
  no timer to cancel.
- One timer, armed only while blocks are inside, wakes at the oldest deadline but at most once
  per ``timeout / CHECKS``, cancels every overdue block's task and re-arms (an idle store arms
  none). A deadline fires between ``timeout`` and ``timeout × (1 + 1/CHECKS)``.
- The overdue block ends as under ``asyncio.timeout``: the guard turns the CancelledError into
  ``RoomError(unavailable, "... no answer within {timeout}s ...")``; a cancel from elsewhere
  stays a cancel. An auto-pipelined command of a cancelled caller is never sent or its reply is
  dropped (``batch``), so the bound covers every await of the block.

Redis failures inside the block become typed RoomErrors exactly as under ``guarded``.
"""

from __future__ import annotations

import asyncio
from asyncio import current_task, get_running_loop
from collections import deque
from types import TracebackType

from rooms.backends.redis.connect import raise_typed, unavailable

__all__ = ["CHECKS", "Deadlines"]

CHECKS = 4
"""Timer wake-ups per ``timeout`` at most: a deadline fires at most ``timeout / CHECKS``
late, and a busy store pays one timer per that interval, whatever its call rate."""


class Deadlines:
    """The deadlines of every block entered through ``guard``, all ``timeout`` long."""

    __slots__ = ("_blocks", "_handle", "_loop", "_step", "timeout")

    def __init__(self, timeout: float, *, checks: int = CHECKS) -> None:
        if not timeout > 0 or checks < 1:
            raise ValueError(f"deadlines need a timeout above 0 and checks >= 1: {timeout!r}")
        self.timeout = timeout
        self._step = timeout / checks
        self._blocks: deque[_Block] = deque()  # in entry order, so in deadline order
        self._handle: asyncio.TimerHandle | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def guard(self, what: str) -> _Block:
        """``async with`` this around a store call: its deadline, and typed errors."""
        return _Block(self, what)

    @property
    def armed(self) -> bool:
        """Whether the timer is armed (for tests and stats)."""
        return self._handle is not None

    @property
    def inside(self) -> int:
        """Blocks not yet known to be gone: those inside and gone ones not dropped yet."""
        return len(self._blocks)

    def close(self) -> None:
        """Disarm the timer; the blocks still inside run on without a deadline."""
        if self._handle is not None:
            self._handle.cancel()
            self._handle = None
        self._blocks.clear()

    def _enter_loop(self) -> asyncio.AbstractEventLoop:
        """The running loop, made this one's if it was not (a store lives on one loop at a
        time: a timer or a block left from another loop would never be done here)."""
        loop = get_running_loop()
        if loop is not self._loop:
            self.close()
            self._loop = loop
        return loop

    def _expire(self) -> None:
        loop = self._loop
        assert loop is not None
        now = loop.time()
        blocks = self._blocks
        while blocks:
            block = blocks[0]
            if block._task is not None:
                if block._deadline > now:
                    break
                block._expire()
            blocks.popleft()
        if blocks:
            self._handle = loop.call_at(max(blocks[0]._deadline, now + self._step), self._expire)
        else:
            self._handle = None


class _Block:
    """One store call's guard (``Deadlines.guard``)."""

    __slots__ = ("_cancelling", "_deadline", "_deadlines", "_expired", "_task", "_what")
    _task: asyncio.Task[object] | None  # set while inside
    _cancelling: int
    _deadline: float

    def __init__(self, deadlines: Deadlines, what: str) -> None:
        self._deadlines = deadlines
        self._what = what
        self._expired = False

    async def __aenter__(self) -> None:
        deadlines = self._deadlines
        loop = deadlines._loop
        # The task of the loop seen last: asking for the running loop would be a large
        # part of this method's cost.
        if loop is None or (task := current_task(loop)) is None:
            # the first block on this loop, or not in a task at all
            loop = deadlines._enter_loop()
            task = current_task(loop)
            if task is None:
                raise RuntimeError("a store call's deadline needs a task")
        self._task = task
        self._cancelling = task.cancelling()
        self._deadline = deadline = loop.time() + deadlines.timeout
        deadlines._blocks.append(self)
        if deadlines._handle is None:
            deadlines._handle = loop.call_at(deadline, deadlines._expire)

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        task, self._task = self._task, None
        blocks = self._deadlines._blocks
        while blocks and blocks[0]._task is None:
            blocks.popleft()
        if self._expired:
            # As asyncio.Timeout: the cancel was ours unless someone else's came too.
            assert task is not None
            if task.uncancel() <= self._cancelling and kind is asyncio.CancelledError:
                timeout = self._deadlines.timeout
                raise unavailable(self._what, f"no answer within {timeout:g}s") from None
        if exc is not None:
            raise_typed(self._what, exc)

    def _expire(self) -> None:
        assert self._task is not None
        self._expired = True
        self._task.cancel()
