"""Whether a spectator's guess may count: the sans-I/O judgement, against the room as the
worker knows it.

A guess is for the next move of the game under way: the room must be playing, its version
between the game's last change and the room's (the same rule as a move's: a spectator's
arrival does not make a guess stale, a move does), the cell one the engine would accept
now, and the guesser a spectator of an undelayed game.
"""

from __future__ import annotations

from core import GameError, Move, MoveRequest
from rooms.errors import ErrorCode, RoomError, from_game_error
from rooms.room.room import Room, Status

__all__ = ["cell_key", "check_guess"]


def cell_key(move: Move) -> str:
    """A cell as the book keeps it: ``row,col,layer``."""
    return f"{move.row},{move.col},{move.layer}"


def check_guess(room: Room, conn: str, request: MoveRequest, version: int) -> Move:
    """The cell ``request`` names, if ``conn`` may guess it now; RoomError otherwise."""
    if room.seat_of(conn) is not None:
        raise RoomError(
            ErrorCode.NOT_A_SPECTATOR, "only spectators guess; players play their moves"
        )
    if room.settings.watch_delay > 0:
        raise RoomError(
            ErrorCode.GUESSES_CLOSED,
            f"this game is watched {room.settings.watch_delay:g} s behind: its next move "
            "may be played already, so there is nothing to guess",
        )
    status = room.status
    if status is Status.FINISHED:
        raise RoomError(ErrorCode.GAME_OVER, "the game is over: nothing left to guess")
    if status is not Status.PLAYING:
        raise RoomError(ErrorCode.NOT_STARTED, "the game has not started yet")
    if not room.game_version <= version <= room.version:
        where = "ahead of" if version > room.version else "older than"
        raise RoomError(
            ErrorCode.STALE_VERSION,
            f"version {version} is {where} the game (version {room.version}, last game "
            f"change at {room.game_version}): the move you guessed at has been played",
        )
    try:
        return room.game.copy().play(request)
    except GameError as exc:
        raise from_game_error(exc) from exc
