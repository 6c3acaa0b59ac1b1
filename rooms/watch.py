"""A worker's watch over its rooms: timers for deadlines, and bots' moves.

Whatever the worker sees of a room (a command it ran, a load, an event its connections got)
tells the watch when the room next needs the server to act by itself (``due``: a flag, a first
move that never came, an overdue bot move). One timer per room fires a ``Tick`` through the
service, the same versioned commit as any command; every worker watching may do so, the first
commit wins and a stale tick changes nothing, so clocks run whichever worker is alive.

When this worker's commit made it a bot's turn, it asks the bot at once (off the event loop, in
``think``) and commits the answer as a ``BotMove`` for the game version it was computed for. If
the worker dies meanwhile, any other that sees the move overdue (budget + grace) computes it
again; the second answer for a turn is stale and lands nowhere.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import zlib
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from core import Move
from core.ai import BotAnswer, BotJob, answer_bot_job
from rooms.common.tasks import cancel_all
from rooms.errors import ErrorCode, RoomError
from rooms.room.commands import BotMove, Tick
from rooms.room.room import Room
from rooms.service import RoomService

__all__ = ["Think", "Watch", "think_in_thread"]

log = logging.getLogger("tictactoe.rooms")

Think = Callable[[BotJob], Awaitable[Move | BotAnswer]]
"""Runs a bot's job: the move, or the move with whether it was proven (``BotAnswer``)."""
"""Runs a bot's search off the event loop and returns its move."""

_QUIET = {
    ErrorCode.STALE_VERSION,
    ErrorCode.GAME_OVER,
    ErrorCode.NOT_STARTED,
    ErrorCode.ROOM_NOT_FOUND,
}
"""What a late timer or a bot that lost the race is told: expected, not worth a warning."""


MAX_BOT_FAILURES = 3
"""A bot whose search fails this often for one turn is not asked again for it."""


async def think_in_thread(job: BotJob) -> BotAnswer:
    return await asyncio.to_thread(answer_bot_job, job)


class Watch:
    def __init__(
        self,
        service: RoomService,
        *,
        think: Think = think_in_thread,
        clock: Callable[[], float] = time.time,
        retry: float = 1.0,
    ) -> None:
        self._service = service
        self._think = think
        self._clock = clock
        self._retry = retry
        self._timers: dict[str, tuple[float, asyncio.TimerHandle]] = {}
        self._late: dict[str, tuple[float, int]] = {}  # room -> (a past due, times seen)
        self._thinking: set[tuple[str, int]] = set()
        self._failures: dict[tuple[str, int], int] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.bot_moves = 0
        """Bot moves this worker committed (for tests and metrics)."""
        self.ticks = 0
        """Ticks this worker committed (a flag or an abort)."""
        service.observers.append(self.observe)

    # -- what the worker sees -------------------------------------------------------------

    def observe(self, room: Room, changed: bool) -> None:
        """A room this worker loaded (``changed`` False) or just changed (True)."""
        seat = room.bot_to_move()
        due = room.due()
        if seat is not None and (changed or (due is not None and self._clock() >= due)):
            self._start_bot(room)
        self.noted(room.room_id, due)

    def noted(self, room_id: str, due: float | None) -> None:
        """The room's latest known ``due`` (from an event): keep one timer at it."""
        current = self._timers.pop(room_id, None)
        if current is not None:
            current[1].cancel()
        if due is None:
            self._late.pop(room_id, None)
            return
        delay = due - self._clock()
        if delay > 0:
            self._late.pop(room_id, None)
        else:
            # Past due: act at once the first time; if it is still past due afterwards (a
            # bot still thinking, a broken bot), look again later, backing off, never spin.
            seen, times = self._late.get(room_id, (due, -1))
            times = times + 1 if seen == due else 0
            self._late[room_id] = (due, times)
            delay = 0.0 if times == 0 else min(self._retry * 2 ** (times - 1), 60.0)
        loop = asyncio.get_running_loop()
        handle = loop.call_later(delay, self._fire, room_id)
        self._timers[room_id] = (due, handle)

    def pending(self, room_id: str) -> float | None:
        """The time this worker's timer for ``room_id`` is set to (None: no timer)."""
        timer = self._timers.get(room_id)
        return timer[0] if timer is not None else None

    # -- acting ---------------------------------------------------------------------------

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.get_running_loop().create_task(work, name=name)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def _fire(self, room_id: str) -> None:
        self._timers.pop(room_id, None)
        self._spawn(self._check(room_id), f"watch:{room_id}")

    async def _check(self, room_id: str) -> None:
        try:
            room = await self._service.load(room_id)  # observed: re-arms, starts late bots
            deadline = room.deadline()
            if deadline is not None and self._clock() >= deadline.at:
                executed = await self._service.execute(room_id, Tick())
                if executed.event is not None:
                    self.ticks += 1
        except RoomError as exc:
            if exc.code not in _QUIET:
                log.warning("room %s: a timer could not act: %s", room_id, exc.message)
        except Exception:
            log.exception("room %s: a timer failed", room_id)

    def _start_bot(self, room: Room) -> None:
        turn = (room.room_id, room.game_version)
        if turn in self._thinking or self._failures.get(turn, 0) >= MAX_BOT_FAILURES:
            return
        self._thinking.add(turn)
        self._spawn(self._play_bot(room), f"bot:{room.room_id}")

    async def _play_bot(self, room: Room) -> None:
        seat = room.bot_to_move()
        assert seat is not None and seat.bot is not None
        turn = (room.room_id, room.game_version)
        try:
            # the same seed on every worker: two workers computing one turn agree anyway
            seed = zlib.crc32(f"{room.room_id}:{room.game_number}:{room.game.ply}".encode())
            job = BotJob.of(room.game, seat.bot, seed=seed, budget=room.settings.bot_budget)
            answer = await self._think(job)
            if not isinstance(answer, BotAnswer):
                answer = BotAnswer(answer)
            command = BotMove(seat.mark, answer.move, room.game_version, answer.proven)
            executed = await self._service.execute(room.room_id, command)
            if executed.event is not None:
                self.bot_moves += 1
        except RoomError as exc:
            if exc.code not in _QUIET:
                log.warning("room %s: the bot's move was refused: %s", room.room_id, exc.message)
        except Exception:
            if len(self._failures) >= 1024:  # forget old turns: this is a guard, not a log
                self._failures.clear()
            self._failures[turn] = self._failures.get(turn, 0) + 1
            log.exception("room %s: the bot failed to move", room.room_id)
        finally:
            self._thinking.discard(turn)

    async def close(self) -> None:
        for _, handle in self._timers.values():
            handle.cancel()
        self._timers.clear()
        await cancel_all(self._tasks)
        with contextlib.suppress(ValueError):
            self._service.observers.remove(self.observe)
