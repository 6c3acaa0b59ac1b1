"""Rematch: every seat votes, then the next game starts in the same room.

The finished game is archived (moves with their times, outcome, who played which mark),
the marks rotate (with two players X and O swap), the series score stays with each
player, clocks reset, and every connection (spectators too) stays and sees the new game.
A bot always votes yes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core import MARKS, Game
from rooms.errors import ErrorCode, RoomError
from rooms.room.clock import Clock
from rooms.room.commands import Rematch
from rooms.room.events import NewGame, RematchOffered
from rooms.room.handled import Handled, Status
from rooms.room.pending import Offers
from rooms.room.record import archive

if TYPE_CHECKING:
    from rooms.room.archive import Archive
    from rooms.room.state import RoomState

__all__ = ["KEEP_GAMES", "rematch"]

KEEP_GAMES = 50
"""How many earlier games a room keeps (the oldest are dropped first)."""


def rematch(room: RoomState, command: Rematch, now: float) -> Handled:
    seat = room.seated(command.conn)
    if room.status is not Status.FINISHED:
        raise RoomError(
            ErrorCode.NOT_FINISHED, "a rematch can be asked for only once the game is over"
        )
    if room.settings.tournament is not None:  # the tournament scores one game a pairing
        raise RoomError(ErrorCode.GAME_OVER, "a tournament game has no rematch")
    if len(room.seats) < room.rules.players:
        raise RoomError(ErrorCode.NOT_STARTED, "this room never started; nothing to rematch")
    if seat.mark in room.offers.rematch:
        raise RoomError(ErrorCode.OFFER_PENDING, f"{seat.mark} already asked for a rematch")
    votes = [*room.offers.rematch, seat.mark]
    votes += [s.mark for s in room.seats if s.bot is not None and s.mark not in votes]
    if len(votes) < room.rules.players:
        room.offers.rematch = votes
        version = room.bump(now)
        return room.changed(
            RematchOffered(
                version=version,
                by=seat.mark,
                clock=room.clock_view(now),
                offers=room.offers.view(),
                due=room.due(),
            )
        )
    # Before any change: the game is spliced into the archive's text without parsing it;
    # only an archive stored with plain commas (the older layout) is parsed, once,
    # and refuses the command if corrupted (rooms.room.archive).
    games = room.games.appended(archive(room), KEEP_GAMES)
    return _new_game(room, games, now)


def _new_game(room: RoomState, games: Archive, now: float) -> Handled:
    room.games = games
    count = len(room.seats)
    rotated = room.seats[1:] + room.seats[:1]  # whoever was second now moves first
    marks: dict[str, str] = {}
    for index, seat in enumerate(rotated):
        marks[seat.mark] = MARKS[index]
        seat.mark = MARKS[index]
        seat.moves.clear()  # move ids are unique per seat and game
    assert len(rotated) == count
    room.seats = rotated
    room.game = Game(room.rules)
    room.game_number += 1
    room.move_times = []
    room.offers = Offers()
    room.started_at = now
    room.ended_at = None
    room.turn_started = now
    tc = room.settings.time_control
    room.clock = Clock.fresh(tc, room.rules.marks) if tc is not None else None
    version = room.bump(now)
    room.game_version = version
    event = NewGame(
        version=version,
        game_number=room.game_number,
        marks=marks,
        players=room.players(),
        board=room.game.board.text,
        turn=room.game.turn,
        status=room.status.value,
        started_at=now,
        clock=room.clock_view(now),
        offers=room.offers.view(),
        due=room.due(),
    )
    return room.changed(event)
