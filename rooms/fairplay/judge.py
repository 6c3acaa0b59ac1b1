"""A worker's fair-play judge: judges the games it saw end, off the event loop.

It observes the rooms its service commits (as the rater does). When this worker's commit
ended a game (or committed in its first seconds after the end), and a seat of it belongs to a
human identity, the game's moves are judged against the solver (``core.fairplay.judge``, in
a thread, one game at a time per worker, a bounded queue beyond) and the counts go to the
ledger, which counts each game once whoever judged it. A game nobody judged (its worker died
first, or the queue was full) is simply not counted: the signal is best effort, never a
record of every game.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Mapping, Sequence

from core import Move, Rules
from core.fairplay import LARGEST_CELLS, SMALLEST_CELLS, Judged, judge
from rooms.common import metrics
from rooms.common.tasks import cancel_all
from rooms.errors import RoomError
from rooms.fairplay.ledger import FairPlayLedger, Summary
from rooms.room.room import Room
from rooms.service import RoomService

__all__ = ["JUST_ENDED", "QUEUE", "FairPlayJudge"]

log = logging.getLogger("tictactoe.rooms")

JUST_ENDED = 5.0
"""Seconds after a game's end within which a commit this worker made triggers judging."""
QUEUE = 16
"""Games a worker may have waiting to be judged; beyond, a game is skipped (and counted)."""

Judge = Callable[[Rules, Sequence[Move]], Mapping[str, Judged] | None]


class FairPlayJudge:
    def __init__(
        self,
        service: RoomService,
        ledger: FairPlayLedger,
        *,
        judge_game: Judge = judge,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._ledger = ledger
        self._judge_game = judge_game
        self._clock = clock
        self._seen: dict[tuple[str, int], None] = {}
        self._one_at_a_time = asyncio.Semaphore(1)
        self._waiting = 0
        self._tasks: set[asyncio.Task[None]] = set()
        self.judged = 0
        """Games this worker judged and counted (tests)."""
        self.skipped = 0
        """Games this worker let go because its queue was full (tests)."""
        service.observers.append(self.observe)

    def observe(self, room: Room, changed: bool) -> None:
        ended = room.ended_at
        if not changed or not room.game.is_over or ended is None:
            return
        if self._clock() - ended > JUST_ENDED:
            return
        key = (room.room_id, room.game_number)
        if key in self._seen:
            return
        players = {
            seat.mark: seat.player_id
            for seat in room.seats
            if seat.player_id is not None and not seat.bot
        }
        cells = room.rules.rows * room.rules.cols * room.rules.layers
        if not players or not SMALLEST_CELLS <= cells <= LARGEST_CELLS:
            return  # nobody to count it for, or a board core.fairplay does not judge
        self._seen[key] = None
        while len(self._seen) > 1024:  # a worker's memory of games it saw end, bounded
            self._seen.pop(next(iter(self._seen)))
        if self._waiting >= QUEUE:
            self.skipped += 1
            return
        self._waiting += 1
        task = asyncio.get_running_loop().create_task(
            self._judge(f"{key[0]}:{key[1]}", room.rules, room.game.history, players),
            name=f"fairplay:{room.room_id}",
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _judge(
        self, game_key: str, rules: Rules, moves: Sequence[Move], players: dict[str, str]
    ) -> None:
        try:
            async with self._one_at_a_time:
                judged = await asyncio.to_thread(self._judge_game, rules, list(moves))
            if judged is None:
                return
            counts = {player: judged[mark] for mark, player in players.items()}
            after = await self._ledger.record(game_key, counts)
        except RoomError as exc:  # the store is unreachable: this game goes uncounted
            log.warning("fair play: %s not counted: %s", game_key, exc.message)
            return
        except Exception:  # a signal, never worth a worker: say so and go on
            log.exception("fair play: judging %s failed", game_key)
            return
        finally:
            self._waiting -= 1
        if after is None:
            return  # another worker counted it first
        self.judged += 1
        metrics.sink.fairplay(newly_flagged=sum(_crossed(s, counts) for s in after))

    async def close(self) -> None:
        with contextlib.suppress(Exception):
            await cancel_all(list(self._tasks))


def _crossed(after: Summary, counts: Mapping[str, Judged]) -> bool:
    """Whether this game's counts made the player flagged."""
    game = counts[after.player_id]
    before = Summary(
        after.player_id,
        after.games - 1,
        after.critical - game.critical,
        after.matched - game.matched,
    )
    return after.flagged and not before.flagged
