"""A worker's rater: applies the ratings of the rated games it sees ended.

It observes every room the service loads or changes (as the watch does). A room with a
pending rated game (rooms.room.rated) gets it applied to the book, then ``RatingsApplied``
committed, which clears it. The book applies a game once whatever happens (rooms.ratings.book),
so it does not matter which worker does this, nor how many do: the one that committed the end
first of all, and any that sees the room afterwards while the entry is still there. A pending
entry makes the room due at once (``RoomState.due``), so the watch's timers, on every worker
that follows the room, load it again (backing off) until the entry is gone: a failure here or a
worker's death between the two steps is retried, and the retry changes no rating twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine
from typing import Any

from rooms.common.tasks import cancel_all
from rooms.errors import ErrorCode, RoomError
from rooms.ratings.book import RatingBook
from rooms.room.commands import RatingsApplied
from rooms.room.room import Room
from rooms.service import RoomService

__all__ = ["Rater"]

log = logging.getLogger("tictactoe.rooms")


class Rater:
    def __init__(
        self,
        service: RoomService,
        book: RatingBook,
        *,
        between: Callable[[], None] | None = None,
    ) -> None:
        self._service = service
        self._book = book
        self._between = between
        """Called after a game is applied and before ``RatingsApplied`` is committed: tests
        end the worker there (server.crash_points)."""
        self._applying: set[tuple[str, int]] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self.applied = 0
        """Rated games whose ``RatingsApplied`` this worker committed (tests, metrics)."""
        service.observers.append(self.observe)

    def observe(self, room: Room, changed: bool) -> None:
        for entry in room.rating_pending:
            key = (room.room_id, int(entry["game_number"]))
            if key in self._applying:
                continue
            self._applying.add(key)
            self._spawn(self._apply(room.room_id, entry, key), f"rate:{room.room_id}")

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _apply(self, room_id: str, entry: dict[str, Any], key: tuple[str, int]) -> None:
        try:
            change = await self._book.apply(entry, room_id)
            if self._between is not None:
                self._between()
            executed = await self._service.execute(room_id, RatingsApplied(key[1], change))
            if executed.event is not None:
                self.applied += 1
        except RoomError as exc:
            if exc.code is not ErrorCode.ROOM_NOT_FOUND:
                log.warning("room %s: ratings not applied yet: %s", room_id, exc.message)
        except Exception:
            log.exception("room %s: applying ratings failed", room_id)
        finally:
            self._applying.discard(key)

    async def drain(self) -> None:
        """Wait for the applications under way (tests)."""
        while self._tasks:
            await asyncio.gather(*tuple(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        await cancel_all(self._tasks)
        with contextlib.suppress(ValueError):
            self._service.observers.remove(self.observe)
