"""Group commit: items arriving for a key while its previous group commits go next, together.

``add`` puts an item in the key's forming group (starting one, and the task that commits it,
when there is none) and returns the group, whose ``done`` gives the commit's answer to all in
it. The task waits for the key's previous group to finish, then ``window(key)`` seconds more
where gathering pays, and closes the group: later items form the next. A lone item at a quiet
key is committed at once. ``withdraw`` takes an item out of a group not closed yet. Used for
spectators arriving or leaving together (rooms.presence.rooms): one commit and one
``spectators`` event for all, instead of one each sent to everyone already watching.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from typing import Generic, TypeVar

from rooms.common.keyed_locks import KeyedLocks

__all__ = ["Gathering", "Group"]

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")
R = TypeVar("R")


class Group(Generic[T, R]):
    """Items committed together, and the commit's answer (or error) for all of them."""

    __slots__ = ("committing", "done", "items")

    def __init__(self) -> None:
        self.items: list[T] = []
        self.done: asyncio.Future[R] = asyncio.get_running_loop().create_future()
        self.committing = False
        """Set once the commit of ``items`` has started (it may land from then on)."""


class Gathering(Generic[K, T, R]):
    def __init__(
        self, commit: Callable[[K, list[T]], Awaitable[R]], window: Callable[[K], float]
    ) -> None:
        self._commit = commit
        self._window = window
        self._forming: dict[K, Group[T, R]] = {}
        self._turns = KeyedLocks()  # one group of a key committing at a time
        self._tasks: set[asyncio.Task[None]] = set()

    def add(self, key: K, item: T) -> Group[T, R]:
        """``item`` in ``key``'s forming group; await ``asyncio.shield(group.done)``."""
        group = self._forming.get(key)
        if group is None:
            group = self._forming[key] = Group()
            task = asyncio.create_task(self._run(key, group), name=f"gathering:{key}")
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)
        group.items.append(item)
        return group

    def withdraw(self, key: K, group: Group[T, R], item: T) -> bool:
        """Take ``item`` out of ``group`` unless its commit has started: True, it is not
        committed (nor ever will be: the group is still forming, or was cancelled before
        its commit); False, it is being committed (or was) with the others."""
        if group.committing:
            return False
        if item in group.items:
            group.items.remove(item)
        return True

    async def _run(self, key: K, group: Group[T, R]) -> None:
        try:
            async with self._turns.hold(key):  # the group before it commits meanwhile
                delay = self._window(key)
                if delay > 0:
                    await asyncio.sleep(delay)
                del self._forming[key]  # closed: later items form the next group
                if not group.items:  # everyone withdrew: nobody waits for an answer
                    return
                group.committing = True
                answer = await self._commit(key, group.items)
        except asyncio.CancelledError:
            if self._forming.get(key) is group:
                del self._forming[key]
            group.done.cancel()
            raise
        except BaseException as exc:
            group.done.set_exception(exc)
        else:
            group.done.set_result(answer)

    async def close(self) -> None:
        """Cancel the groups still forming or committing (their members get a cancel)."""
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
