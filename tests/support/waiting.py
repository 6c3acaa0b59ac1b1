"""Waiting for a condition instead of sleeping: poll it until it holds, within a bound.

``eventually(check, what)`` calls ``check`` (a plain function, or one returning an
awaitable) until it returns something truthy, and returns that value. When the bound
passes first it fails with ``AssertionError`` naming ``what`` was awaited and the last
value (or exception) seen. ``retrying(action, what, transient=...)`` awaits an action
again while it fails with an error the test calls transient (a server still recovering)
and returns its result; at the bound the last error propagates. The bounds are against
hangs on a busy machine, never measurements: nothing here asserts how long anything took.
``eventually_sync`` is ``eventually`` for code without an event loop (a thread, a process
being started).
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar, overload

__all__ = ["WAIT", "eventually", "eventually_sync", "retrying"]

T = TypeVar("T")

WAIT = 20.0
"""The default bound in seconds: generous, so a loaded 2-core machine does not fail a test."""

INTERVAL = 0.02


def _failure(what: str, timeout: float, last: object, error: BaseException | None) -> str:
    seen = f"last error: {error!r}" if error is not None else f"last: {last!r}"
    return f"waited {timeout:g}s for: {what}; {seen}"


@overload
async def eventually(
    check: Callable[..., Awaitable[T | None]],  # ...: a lambda binding a loop variable
    what: str,
    *,
    timeout: float = ...,
    interval: float = ...,
    ignoring: tuple[type[BaseException], ...] = ...,
) -> T: ...


@overload
async def eventually(
    check: Callable[..., T | None],
    what: str,
    *,
    timeout: float = ...,
    interval: float = ...,
    ignoring: tuple[type[BaseException], ...] = ...,
) -> T: ...


async def eventually(
    check: Callable[[], Any],
    what: str,
    *,
    timeout: float = WAIT,
    interval: float = INTERVAL,
    ignoring: tuple[type[BaseException], ...] = (),
) -> Any:
    """Until ``check()`` (sync or async) is truthy; returns its value.

    An exception of a type in ``ignoring`` counts as "not yet"; any other propagates."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    last: object = None
    error: BaseException | None = None
    while True:
        try:
            result = check()
            if inspect.isawaitable(result):
                result = await result
        except ignoring as exc:
            error = exc
        else:
            if result:
                return result
            last, error = result, None
        if loop.time() > end:
            raise AssertionError(_failure(what, timeout, last, error))
        await asyncio.sleep(interval)  # the poll interval, not a synchronisation


async def retrying(
    action: Callable[[], Awaitable[T]],
    what: str,
    *,
    transient: Callable[[Exception], bool],
    timeout: float = WAIT,
    interval: float = 0.05,
) -> T:
    """``await action()`` until it does not raise an error ``transient`` accepts; its result.

    Any other error propagates at once; a transient one propagates once ``timeout`` passed,
    with a note naming ``what`` was awaited."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while True:
        try:
            return await action()
        except Exception as exc:
            if not transient(exc):
                raise
            if loop.time() > end:
                exc.add_note(f"still failing after {timeout:g}s: {what}")
                raise
        await asyncio.sleep(interval)  # the retry interval, not a synchronisation


def eventually_sync(
    check: Callable[[], T | None],
    what: str,
    *,
    timeout: float = WAIT,
    interval: float = INTERVAL,
    ignoring: tuple[type[BaseException], ...] = (),
    pause: Callable[[float], object] = time.sleep,
) -> T:
    """``eventually`` for code that runs no event loop (blocks the calling thread).

    ``pause(seconds)`` passes the interval: ``time.sleep``, or a call that lets something
    else run meanwhile (Playwright's ``page.wait_for_timeout`` lets the page handle its
    events)."""
    end = time.monotonic() + timeout
    last: Any = None
    error: BaseException | None = None
    while True:
        try:
            result = check()
        except ignoring as exc:
            error = exc
        else:
            if result:
                return result
            last, error = result, None
        if time.monotonic() > end:
            raise AssertionError(_failure(what, timeout, last, error))
        pause(interval)  # the poll interval, not a synchronisation
