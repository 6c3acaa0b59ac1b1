"""A worker's tournament director: does each running tournament's due work, on any worker.

Every worker runs one. It scans the tournaments not finished (``TournamentShelf.active``) every
``interval`` seconds, and at once for a tournament whose game's room it sees end (a room
service observer), and for each one does what is due, each step a compare-and-set change of
the record (``TournamentService.change``):

- a tournament whose start time passed starts (one with fewer than two entrants, but an
  arena, finishes instead; a Swiss with fewer entrants than rounds plays one round fewer
  than its entrants; a knockout is seeded by the ratings read from ``ratings``);
- a game paired (a round robin's: of the current round) without a room gets one, under the
  id derived from the tournament, round and game (``game_room_id``), with its two entrants
  seated: an identity's seat waits for that player's join, a bot's plays; then the room is
  recorded. A second worker doing the same finds the id taken (``RoomService.create_named``)
  and records the same room;
- a game whose room's game ended is scored (the winner, a draw, or, for a game aborted by its
  first-move limit, a forfeit by the side that did not move; two in a row withdraw them); a
  game whose room is gone before it ended is a draw;
- then each kind's next step (``rooms.tournaments.kinds``): a round robin's or a Swiss's
  round whose games all have results opens the next one (a Swiss's paired from the standings
  so far), or finishes the tournament; a knockout's match whose game was drawn gets a replay,
  and a round whose matches are decided opens the next one, or its final's winner finishes
  it; an arena pairs its free players (``rooms.tournaments.arena``), or, once its time is up
  and every game has a result, finishes.

A worker that dies between two steps leaves the record as of its last commit: whichever
worker scans next finds the same work due and does it, and nothing is done twice, because
each step re-reads the record and changes nothing when the work is done already.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from functools import partial

from core import EndReason, Rules
from rooms.bots.challenges import Challenger, seat_message, tell_seat
from rooms.bots.desk import BotDesk
from rooms.common.tasks import cancel_all
from rooms.errors import ErrorCode, RoomError
from rooms.ratings import RatingBook
from rooms.room.config import RoomSettings, TimeControl
from rooms.room.handled import Status as RoomStatus
from rooms.room.room import Room
from rooms.room.seats import Seat
from rooms.service import RoomService
from rooms.tournaments.kinds import advance, start
from rooms.tournaments.record import (
    ARENA,
    DRAW,
    SWISS,
    Game,
    Status,
    TournamentRecord,
    game_room_id,
)
from rooms.tournaments.seeding import seeding_ratings
from rooms.tournaments.service import TournamentService

__all__ = ["Director", "game_result"]

log = logging.getLogger("tictactoe.rooms")


def game_result(room: Room, game: Game) -> tuple[str, str | None] | None:
    """The tournament result of ``game`` from its room: (the winner's id or ``draw``, the
    entrant who missed the first move or None); None while the game is not over."""
    if room.status is not RoomStatus.FINISHED or room.game_number != 1:
        return None
    outcome = room.game.outcome
    assert outcome is not None
    if outcome.reason is EndReason.ABORTED:  # only the first-move limit aborts here
        missed = game.first if room.game.ply == 0 else game.second
        return game.other(missed), missed
    if outcome.winner is None:
        return DRAW, None
    return (game.first if outcome.winner == room.rules.marks[0] else game.second), None


class Director:
    def __init__(
        self,
        tournaments: TournamentService,
        rooms: RoomService,
        *,
        interval: float = 0.5,
        ratings: RatingBook | None = None,
        bot_desk: BotDesk | None = None,
    ) -> None:
        self._tournaments = tournaments
        self._rooms = rooms
        self._ratings = ratings
        self._bot_desk = bot_desk
        """Where a bot account entrant hears of its games' seats (rooms.bots.desk)."""
        self._interval = interval
        self._stepping: set[str] = set()
        self._again: set[str] = set()
        self._tasks: set[asyncio.Task[None]] = set()
        self._loop_task: asyncio.Task[None] | None = None
        rooms.observers.append(self.observe)

    # -- when ------------------------------------------------------------------------------

    def start(self) -> None:
        self._loop_task = asyncio.get_running_loop().create_task(self._scan(), name="director")

    async def _scan(self) -> None:
        while True:
            try:
                for tournament_id in await self._tournaments.shelf.active():
                    self.poke(tournament_id)
            except RoomError as exc:
                log.warning("tournaments not scanned: %s", exc.message)
            except Exception:
                log.exception("tournaments not scanned")
            await asyncio.sleep(self._interval)

    def observe(self, room: Room, changed: bool) -> None:
        tournament = room.settings.tournament
        if tournament is not None and changed and room.status is RoomStatus.FINISHED:
            self.poke(tournament)

    def poke(self, tournament_id: str) -> None:
        """Look at ``tournament_id`` now (once more after the look under way, if any)."""
        if tournament_id in self._stepping:
            self._again.add(tournament_id)
            return
        self._stepping.add(tournament_id)
        task = asyncio.get_running_loop().create_task(
            self._steps(tournament_id), name=f"tournament:{tournament_id}"
        )
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _steps(self, tournament_id: str) -> None:
        try:
            while True:
                self._again.discard(tournament_id)
                try:
                    await self.step(tournament_id)
                except RoomError as exc:
                    log.warning("tournament %s: %s", tournament_id, exc.message)
                except Exception:
                    log.exception("tournament %s: a step failed", tournament_id)
                if tournament_id not in self._again:
                    return
        finally:
            self._stepping.discard(tournament_id)

    # -- what ------------------------------------------------------------------------------

    async def step(self, tournament_id: str) -> TournamentRecord:
        """Do everything due in the tournament now; the record as it then stands."""
        change = self._tournaments.change
        clock = self._tournaments.clock
        record = await self._tournaments.get(tournament_id)
        starts_at = record.starts_at
        if record.status is Status.OPEN and starts_at is not None and clock() >= starts_at:
            ratings = await seeding_ratings(record, self._ratings)
            record, _ = await change(tournament_id, partial(_start_or_finish, clock(), ratings))
        while record.status is Status.RUNNING:
            for game in record.rooms_due():
                room_id = await self._make_room(record, game)
                made = partial(_room_made, game.round, game.index, room_id)
                record, _ = await change(tournament_id, made)
            for game in record.open_games():
                assert game.room is not None
                try:
                    result = game_result(await self._rooms.load(game.room), game)
                except RoomError as exc:
                    if exc.code is not ErrorCode.ROOM_NOT_FOUND:
                        raise
                    # gone unscored (a day untouched, or a store that lost it): a draw, so
                    # the tournament is never stuck on a game nobody can finish
                    result = (DRAW, None)
                if result is not None:
                    scored = partial(_scored, game.round, game.index, *result, now=clock())
                    record, _ = await change(tournament_id, scored)
            # off the loop: a Swiss's pairing is a search that may take a moment
            step = partial(advance, now=clock())
            record, advanced = await change(tournament_id, step, in_thread=True)
            if not advanced:
                break
        return record

    async def _make_room(self, record: TournamentRecord, game: Game) -> str:
        room_id = game_room_id(record.id, game.round, game.index)
        rules = Rules.from_dict(record.rules)
        settings = RoomSettings(
            time_control=TimeControl.from_dict(record.time_control),
            tournament=record.id,
            watch_delay=record.watch_delay,  # its spectators see it that far behind
        )
        now = self._tournaments.clock()

        def seat(room: Room) -> None:
            for mark, entrant_id in zip(rules.marks, (game.first, game.second), strict=True):
                entrant = record.entrant(entrant_id)
                assert entrant is not None
                if entrant.bot is not None:
                    room.seats.append(Seat(mark, entrant.name, "", bot=entrant.bot))
                else:
                    room.seats.append(
                        Seat(
                            mark,
                            entrant.name,
                            "",
                            away_since=now,
                            player_id=entrant.id,
                            bot_account=entrant.bot_account,
                        )
                    )
            room.start_if_full(now)

        await self._rooms.create_named(room_id, rules, settings=settings, seat=seat)
        await self._tell_bots(record, game, room_id)
        return room_id

    async def _tell_bots(self, record: TournamentRecord, game: Game, room_id: str) -> None:
        """Leave a ``seat`` for each bot account entrant of ``game`` on its desk, so that the
        bot hears of it on its socket as of a challenge's (rooms.bots.challenges)."""
        if self._bot_desk is None:
            return
        pair = (game.first, game.second)
        for mark, entrant_id in zip(Rules.from_dict(record.rules).marks, pair, strict=False):
            entrant = record.entrant(entrant_id)
            other = record.entrant(game.other(entrant_id))
            if entrant is None or other is None or not entrant.bot_account:
                continue
            opponent = Challenger(other.name, other.id, bot=other.bot_account)
            seat = seat_message(
                room_id,
                mark,
                opponent,
                rules=record.rules,
                time_control=TimeControl.from_dict(record.time_control).to_dict(),
                rated=False,
                tournament=record.id,
            )
            try:
                await tell_seat(self._bot_desk, entrant.id, seat)
            except RoomError as exc:  # it still finds the game on the tournament's socket
                log.warning(
                    "tournament %s: bot %s not told of its seat: %s",
                    record.id,
                    entrant.id,
                    exc.message,
                )

    async def drain(self) -> None:
        """Wait for the looks under way (tests)."""
        while self._tasks:
            await asyncio.gather(*tuple(self._tasks), return_exceptions=True)

    async def close(self) -> None:
        await cancel_all(t for t in (self._loop_task, *self._tasks) if t is not None)
        with contextlib.suppress(ValueError):
            self._rooms.observers.remove(self.observe)


def _start_or_finish(now: float, ratings: dict[str, float], record: TournamentRecord) -> bool:
    if record.status is not Status.OPEN:
        return False
    if len(record.entrants) < 2 and record.kind != ARENA:  # an arena takes late entrants
        record.status = Status.FINISHED
        return True
    if record.kind == SWISS:  # fewer came than it has rounds: as many as they can play
        record.rounds = min(record.rounds, len(record.entrants) - 1)
    start(record, now, ratings)
    return True


def _room_made(game_round: int, index: int, room_id: str, record: TournamentRecord) -> bool:
    return record.room_made(game_round, index, room_id)


def _scored(
    game_round: int,
    index: int,
    result: str,
    missed: str | None,
    record: TournamentRecord,
    *,
    now: float,
) -> bool:
    return record.score(game_round, index, result, missed=missed, at=now)
