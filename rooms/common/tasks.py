"""Stopping background tasks: for good (the buses' readers, resyncs and sweepers), or a
worker part's tasks at its close (the watch, the rater, the tournament director)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Iterable

__all__ = ["cancel_all", "stop_task"]

log = logging.getLogger("tictactoe.rooms")


async def stop_task(task: asyncio.Task[None]) -> None:
    """Cancel ``task`` and wait until it ends, cancelling again if need be.

    Once is not always enough: a cancel that lands just as a redis-py timeout expires can
    be swallowed (a read with a timeout returns None as if it had timed out), and the task
    would carry on. The buses' loops also stop on their ``_closing``."""
    for _ in range(100):
        task.cancel()
        done, _ = await asyncio.wait({task}, timeout=0.1)
        if done:
            if not task.cancelled() and task.exception() is not None:
                log.warning("redis bus: a task failed while closing: %r", task.exception())
            return
    log.error("redis bus: task %s did not stop", task.get_name())


async def cancel_all(tasks: Iterable[asyncio.Task[None]]) -> None:
    """Cancel every task in ``tasks`` (a snapshot is taken first), then wait for each to
    end; a task's own cancellation is not an error, anything else it raised is."""
    stopping = list(tasks)
    for task in stopping:
        task.cancel()
    for task in stopping:
        with contextlib.suppress(asyncio.CancelledError):
            await task
