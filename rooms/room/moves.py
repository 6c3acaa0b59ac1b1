"""Moves: a player's move and a bot's move, both played through the engine.

A player's move is idempotent by ``move_id`` and checked against the version it was made for; a
bot's is checked against the game it was computed for. Both are charged to the mover's clock and
refused once the mover's time ran out (the flag itself is committed by a ``Tick``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core import GameError, MoveRequest
from rooms.errors import ErrorCode, RoomError, from_game_error
from rooms.room.commands import BotMove, MoveReply, PlayMove
from rooms.room.events import Moved
from rooms.room.handled import Handled
from rooms.room.seats import Seat

if TYPE_CHECKING:
    from rooms.room.state import RoomState

__all__ = ["bot_move", "move", "play"]


# -- moves ----------------------------------------------------------------------------


def move(room: RoomState, command: PlayMove, now: float) -> Handled:
    seat = room.seated(command.conn)
    applied = seat.moves.get(command.move_id)
    if applied is not None:  # a retry of a move that landed: acknowledge, never replay
        return Handled(None, MoveReply(command.move_id, applied, duplicate=True))
    room.require_playing()
    if not room.game_version <= command.version <= room.version:
        where = "ahead of" if command.version > room.version else "older than"
        raise RoomError(
            ErrorCode.STALE_VERSION,
            f"version {command.version} is {where} the game (version {room.version}, "
            f"last game change at {room.game_version}); sync and try again",
        )
    if seat.bot is not None:  # unreachable: a bot seat holds no connection
        raise RoomError(ErrorCode.NOT_A_PLAYER, "a bot's seat moves by itself")
    return play(room, seat, command.request, command.move_id, now)


def bot_move(room: RoomState, command: BotMove, now: float) -> Handled:
    seat = room.seat_by_mark(command.mark)
    if seat is None or seat.bot is None:
        raise RoomError(ErrorCode.NOT_A_PLAYER, f"{command.mark!r:.8} is not a bot's seat")
    room.require_playing()
    if command.game_version != room.game_version:
        raise RoomError(
            ErrorCode.STALE_VERSION,
            f"the bot's move was computed at {command.game_version}; the game changed "
            f"at {room.game_version}",
        )
    move = command.move
    request = MoveRequest(col=move.col, row=move.row, layer=move.layer)
    unproven = command.proven is False
    return play(room, seat, request, f"bot-{command.game_version}", now, unproven=unproven)


def play(
    room: RoomState,
    seat: Seat,
    request: MoveRequest,
    move_id: str,
    now: float,
    *,
    unproven: bool = False,
) -> Handled:
    deadline = room.deadline()
    if deadline is not None and deadline.mark == seat.mark and now >= deadline.at:
        what = "first-move limit" if deadline.first_move else "time"
        raise RoomError(ErrorCode.OUT_OF_TIME, f"{seat.mark}'s {what} ran out")
    game = room.game
    try:
        landed = game.play(request, mark=seat.mark)
    except GameError as exc:
        raise from_game_error(exc) from exc
    if room.clock is not None and deadline is not None and not deadline.first_move:
        assert room.turn_started is not None
        room.clock.charge(seat.mark, started=room.turn_started, now=now, increment=True)
    room.move_times.append(now)
    room.turn_started = now
    room.offers.on_move(seat.mark)
    outcome = game.outcome
    if outcome is not None:
        room.settle_game_end(now)
    version = room.bump(now)
    room.game_version = version
    seat.moves[move_id] = version
    event = Moved(
        version=version,
        mark=seat.mark,
        row=landed.row,
        col=landed.col,
        layer=landed.layer,
        ply=game.ply,
        turn=room.turn,
        status=room.status.value,
        outcome=outcome.to_dict() if outcome is not None else None,
        at=now,
        players=room.players() if outcome is not None else None,  # the series score changed
        # a proving bot's best guess: the page says so (docs/protocol.md, moved)
        unproven=True if unproven else None,
        clock=room.clock_view(now),
        offers=room.offers.view(),
        due=room.due(),
    )
    return Handled(event, MoveReply(move_id, version, duplicate=False))
