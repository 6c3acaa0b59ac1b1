"""A room's state, with the bookkeeping the command handlers share.

The state is the rules, seats, spectators, game, clocks, offers, earlier games and version.
``room`` dispatches each command to one handler, and handlers change the state only through this
class's helpers or its plain attributes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Self

from core import EndReason, Game, GameError, Rules, ended_because
from rooms.errors import ErrorCode, RoomError, from_game_error
from rooms.room.archive import EMPTY, Archive
from rooms.room.clock import Clock, Deadline
from rooms.room.commands import Done
from rooms.room.config import BOT_POOL_PREFIX, RoomSettings
from rooms.room.events import Event, GameOver
from rooms.room.handled import Handled, Status
from rooms.room.pending import Offers
from rooms.room.seats import Seat

__all__ = ["RoomState"]


class RoomState:
    def __init__(
        self,
        room_id: str,
        rules: Rules,
        *,
        public: bool,
        created: float,
        game: Game | None = None,
        seats: list[Seat] | None = None,
        spectators: list[str] | None = None,
        version: int = 0,
        game_version: int = 0,
        updated: float | None = None,
        settings: RoomSettings | None = None,
    ) -> None:
        self.room_id = room_id
        self.rules = rules
        self.public = public
        self.created = created
        self.updated = created if updated is None else updated
        self.game = game if game is not None else Game(rules)
        self.seats: list[Seat] = seats if seats is not None else []
        self.spectators: list[str] = spectators if spectators is not None else []
        self.version = version
        self.game_version = game_version
        """The version of the last change to the game or the seats (moves older are stale)."""
        self.settings = settings if settings is not None else RoomSettings()
        tc = self.settings.time_control
        self.clock: Clock | None = Clock.fresh(tc, rules.marks) if tc is not None else None
        self.turn_started: float | None = None
        """When the side to move got the turn (None unless a game is being played)."""
        self.started_at: float | None = None
        self.ended_at: float | None = None
        self.move_times: list[float] = []
        self.offers = Offers()
        self.game_number = 1
        self.games: Archive = EMPTY  # the earlier finished games (records, oldest first)
        self.rating_pending: list[dict[str, Any]] = []
        """Rated games that ended and whose ratings are not yet known applied (rooms.room.rated):
        while there is one, the room is due at once, so some worker applies them."""
        self.rating_change: dict[str, Any] | None = None
        """The last applied rating change (``rated`` event), for a snapshot to show."""

    # -- state ----------------------------------------------------------------------------

    @property
    def status(self) -> Status:
        if self.game.is_over:
            return Status.FINISHED
        if len(self.seats) < self.rules.players:
            return Status.WAITING
        return Status.PLAYING

    @property
    def listed(self) -> bool:
        """Whether the public room list shows this room (public and not finished)."""
        return self.public and self.status is not Status.FINISHED

    @property
    def turn(self) -> str | None:
        return None if self.game.is_over else self.game.turn

    def seat_of(self, conn: str) -> Seat | None:
        for seat in self.seats:
            if conn in seat.connections:
                return seat
        return None

    def held_elsewhere(self, worker: str) -> bool:
        """Whether a connection recorded in the room (a player's or a spectator's) is held
        by another worker than ``worker``, or by one its id does not name: whether a commit
        of ``worker`` must be published for others (rooms.service). Stops at the first."""
        mine = worker + "."
        for seat in self.seats:
            for conn in seat.connections:
                if not conn.startswith(mine):
                    return True
        return any(not conn.startswith(mine) for conn in self.spectators)

    def seat_by_mark(self, mark: str) -> Seat | None:
        return next((seat for seat in self.seats if seat.mark == mark), None)

    def has_bot(self) -> bool:
        """Whether a bot holds a seat (most rooms: no)."""
        for seat in self.seats:  # noqa: SIM110 (asked per command: a loop costs less than any())
            if seat.bot is not None:
                return True
        return False

    def own_moves(self, mark: str) -> int:
        """How many moves ``mark`` has on the board in the current game."""
        index, count = self.rules.marks.index(mark), self.rules.players
        return max(0, (self.game.ply - index + count - 1) // count)

    def deadline(self) -> Deadline | None:
        """When the side to move runs out (flag or first-move limit); None without clocks."""
        if self.clock is None or self.turn_started is None or self.status is not Status.PLAYING:
            return None
        mark = self.game.turn
        first = self.own_moves(mark) == 0
        return self.clock.deadline(mark, started=self.turn_started, first_move=first)

    def bot_to_move(self) -> Seat | None:
        """The bot seat whose move the room waits for, if any."""
        if not self.has_bot() or self.status is not Status.PLAYING:
            return None  # checked first: most rooms have no bot, and this is asked often
        seat = self.seat_by_mark(self.game.turn)
        return seat if seat is not None and seat.bot is not None else None

    def due(self) -> float | None:
        """When the server must act by itself next: a flag or first-move deadline, an
        overdue bot move (its budget and grace passed without it landing), or at once the
        ratings of a rated game that ended (rooms.room.rated), the earliest. Asked per
        change, twice: without a clock, a bot seat or a pending rating, three cheap checks
        say None."""
        deadline = self.deadline()
        due = deadline.at if deadline is not None else None
        if self.rating_pending:  # a rated game's end: due at once until its ratings are applied
            due = self.updated if due is None else min(due, self.updated)
        if self.turn_started is not None and self.bot_to_move() is not None:
            settings = self.settings
            overdue = self.turn_started + settings.bot_budget + settings.bot_grace
            due = overdue if due is None else min(due, overdue)
        return due

    # -- helpers for the command handlers ------------------------------------------------

    def bump(self, now: float) -> int:
        self.version += 1
        self.updated = now
        return self.version

    def seated(self, conn: str) -> Seat:
        """The seat ``conn`` holds; not_a_player for spectators, not_joined otherwise."""
        seat = self.seat_of(conn)
        if seat is None:
            if conn in self.spectators:
                raise RoomError(ErrorCode.NOT_A_PLAYER, "spectators watch; only players can act")
            raise RoomError(ErrorCode.NOT_JOINED, "join the room first")
        return seat

    def require_playing(self) -> None:
        status = self.status
        if status is Status.WAITING:
            free = self.rules.players - len(self.seats)
            raise RoomError(
                ErrorCode.NOT_STARTED,
                "the game starts when another player joins"
                if free == 1
                else f"the game starts when {free} more players join",
            )
        if status is Status.FINISHED:
            assert self.game.outcome is not None
            raise RoomError(
                ErrorCode.GAME_OVER, f"the game is over: {ended_because(self.game.outcome.reason)}"
            )

    def players(self) -> list[dict[str, Any]]:
        grace = self.settings
        if self.correspondence:  # closing the page is how it is played: no absence claims
            return [{**seat.public(), "claimable_at": None} for seat in self.seats]
        return [seat.public(grace.abandon_grace, grace.leave_grace) for seat in self.seats]

    @property
    def correspondence(self) -> bool:
        """Whether this room plays a correspondence game (days per move): only its
        deadline ends it, never a player's absence (rooms.room.endings)."""
        control = self.settings.time_control
        return control is not None and control.days > 0

    def clock_view(self, now: float) -> dict[str, Any] | None:
        if self.clock is None:
            return None
        deadline = self.deadline()
        running = deadline.mark if deadline is not None and not deadline.first_move else None
        return self.clock.view(running, started=self.turn_started, now=now, deadline=deadline)

    def changed(self, event: Event) -> Handled:
        """The answer to a change that ``event`` tells everyone about."""
        return Handled(event, Done(event.version))

    def charge_running(self, now: float, *, increment: bool) -> None:
        """Charge the running clock (if any) for the time spent up to ``now``."""
        deadline = self.deadline()
        if self.clock is not None and deadline is not None and not deadline.first_move:
            assert self.turn_started is not None
            self.clock.charge(
                deadline.mark, started=self.turn_started, now=now, increment=increment
            )

    def end(
        self, finish: Callable[[], object], now: float, *, by: str | None, charge: bool = True
    ) -> Handled:
        """End the game off the board with ``finish`` (a Game method), one game_over event."""
        if charge:
            self.charge_running(now, increment=False)
        try:
            finish()
        except GameError as exc:  # checked before: kept as a typed refusal, not a crash
            raise from_game_error(exc) from exc
        self.settle_game_end(now)
        version = self.bump(now)
        self.game_version = version
        assert self.game.outcome is not None
        event = GameOver(
            version=version,
            outcome=self.game.outcome.to_dict(),
            by=by,
            players=self.players(),
            at=now,
            clock=self.clock_view(now),
            offers=self.offers.view(),
            due=self.due(),
        )
        return self.changed(event)

    def settle_game_end(self, now: float) -> None:
        """Bookkeeping when the game just ended: times, offers and the series score."""
        outcome = self.game.outcome
        assert outcome is not None
        self.ended_at = now
        self.turn_started = None
        self.offers.on_end()
        for seat in self.seats:
            if outcome.winner == seat.mark:
                seat.wins += 1
            elif outcome.is_draw:
                seat.draws += 1
        pending = self.rated_end()
        if pending is not None:
            self.rating_pending = [*self.rating_pending, pending]

    def rated_end(self) -> dict[str, Any] | None:
        """The entry a rated game that just ended leaves to apply (rooms.room.rated): the
        pool, both player ids in mark order and the first one's score; None when the room is
        not rated or the game was aborted (no result)."""
        outcome, pool = self.game.outcome, self.settings.pool
        if pool is None or outcome is None or outcome.reason is EndReason.ABORTED:
            return None
        seats = self.seats  # in mark order (rooms.room.seating)
        if len(seats) != 2 or any(seat.player_id is None or seat.bot for seat in seats):
            return None  # seating refuses this in a rated room
        accounts = {seat.bot_account for seat in seats}
        if len(accounts) > 1:
            return None  # a bot and a person: never rated together (seating refuses it too)
        # a bot's rating lives in the bot pools only, whatever pool the room names
        plain = pool.removeprefix(BOT_POOL_PREFIX)
        pool = BOT_POOL_PREFIX + plain if True in accounts else plain
        first = seats[0].mark
        score = 1.0 if outcome.winner == first else 0.5 if outcome.is_draw else 0.0
        return {
            "game_number": self.game_number,
            "pool": pool,
            "marks": [seat.mark for seat in seats],
            "players": [seat.player_id for seat in seats],
            "score": score,
        }

    def start_if_full(self, now: float) -> None:
        """The last seat was just taken: the game (and the first move's limit) starts."""
        if self.status is Status.PLAYING and self.started_at is None:
            self.started_at = now
            self.turn_started = now

    def seat_bot(self, level: str, mark: str) -> None:
        """Seat a bot on ``mark`` of a new room, before anyone joins (no token, no event:
        the room is created with it)."""
        if self.settings.rated:
            raise RoomError(ErrorCode.NOT_RATED, "games against a bot are not rated", field="bot")
        if self.seats or mark not in self.rules.marks:
            raise RoomError(
                ErrorCode.INVALID_OPTIONS, f"cannot seat a bot on {mark!r:.8}", field="bot_mark"
            )
        self.seats.append(Seat(mark, f"Bot ({level})", "", bot=level))

    def copy(self) -> Self:
        """An independent room in the same state, for a command to change while the room
        it was copied from stays as it was (rooms.service): no decode, no replay."""
        state = self.__dict__.copy()  # ids, times, rules, settings: immutable values, shared
        state["game"], state["seats"] = self.game.copy(), list(map(Seat.copy, self.seats))
        state["spectators"], state["move_times"] = self.spectators.copy(), self.move_times.copy()
        state["clock"] = self.clock.copy() if self.clock is not None else None
        state["offers"] = self.offers.copy()  # the games (an Archive) never change: shared
        state["rating_pending"] = self.rating_pending.copy()  # of entries never changed
        change = self.rating_change
        state["rating_change"] = dict(change) if change is not None else None
        return type(self).restored(state)  # one dict copied, not filled key by key

    @classmethod
    def restored(cls, state: dict[str, Any]) -> Self:
        """The room whose attributes are ``state``, every one that ``__init__`` sets and nothing
        computed (a copy, a decode: rooms.protocol.codec); spares ``__init__`` building defaults
        only to have them replaced."""
        room = object.__new__(cls)
        room.__dict__ = state
        return room
