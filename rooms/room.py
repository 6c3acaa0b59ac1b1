"""The authoritative room as a sans-I/O state machine: ``handle(command, now) -> Handled``.

A room holds the rules, the seats (with token hashes, open connections and applied move
ids), the spectator connections, the game, and its version. ``handle`` validates a command
completely before changing anything, so a refused command (a ``RoomError``) leaves the room
exactly as it was; an accepted change bumps the version by one and yields exactly one event.
No sockets, no clock (``now`` is passed in), no randomness but the new seat tokens.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from core import MARKS, Game, GameError, Rules

from . import events
from .commands import Command, Join, JoinReply, Leave, LeaveReply, MoveReply, PlayMove, Reply, Role
from .errors import ErrorCode, RoomError, from_game_error
from .seats import Seat, find_seat, hash_token, new_token

__all__ = ["Handled", "Room", "Status"]


class Status(StrEnum):
    WAITING = "waiting"
    PLAYING = "playing"
    FINISHED = "finished"


@dataclass(frozen=True, slots=True)
class Handled:
    """What a command did: the event of the change (None: nothing changed) and the reply."""

    event: dict[str, Any] | None
    reply: Reply


class Room:
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

    # -- the one entry point --------------------------------------------------------------

    def handle(self, command: Command, now: float) -> Handled:
        """Apply ``command`` at time ``now``; raises RoomError (and changes nothing) if refused."""
        if isinstance(command, Join):
            return self._join(command, now)
        if isinstance(command, PlayMove):
            return self._move(command, now)
        if isinstance(command, Leave):
            return self._leave(command, now)
        raise RoomError(ErrorCode.BAD_MESSAGE, f"not a room command: {command!r}")

    def _bump(self, now: float) -> int:
        self.version += 1
        self.updated = now
        return self.version

    def _check_new_connection(self, conn: str) -> None:
        if self.seat_of(conn) is not None or conn in self.spectators:
            raise RoomError(ErrorCode.ALREADY_JOINED, f"connection {conn!r} already joined")

    def _join(self, command: Join, now: float) -> Handled:
        self._check_new_connection(command.conn)
        if command.role is Role.SPECTATOR:
            if command.token is not None:
                raise RoomError(ErrorCode.BAD_MESSAGE, "spectators do not send a token")
            self.spectators.append(command.conn)
            event = events.spectators(self._bump(now), len(self.spectators))
            return Handled(event, JoinReply(Role.SPECTATOR, None, None))
        if command.token is not None:
            seat = find_seat(self.seats, command.token)
            if seat is None:
                raise RoomError(ErrorCode.BAD_TOKEN, "this token holds no seat in this room")
            seat.connections.append(command.conn)
            event = events.presence(self._bump(now), seat.mark, True)
            return Handled(event, JoinReply(Role.PLAYER, seat.mark, None))
        if len(self.seats) >= self.rules.players:
            raise RoomError(
                ErrorCode.ROOM_FULL,
                f"all {self.rules.players} seats are taken; join as a spectator to watch",
            )
        mark = MARKS[len(self.seats)]
        token = new_token()
        seat = Seat(mark, command.name or f"Player {mark}", hash_token(token), [command.conn])
        self.seats.append(seat)
        version = self._bump(now)
        self.game_version = version
        event = events.player_joined(version, seat.public(), self.status.value)
        return Handled(event, JoinReply(Role.PLAYER, mark, token))

    def _leave(self, command: Leave, now: float) -> Handled:
        seat = self.seat_of(command.conn)
        if seat is not None:
            seat.connections.remove(command.conn)
            return Handled(
                events.presence(self._bump(now), seat.mark, seat.connected), LeaveReply(True)
            )
        if command.conn in self.spectators:
            self.spectators.remove(command.conn)
            event = events.spectators(self._bump(now), len(self.spectators))
            return Handled(event, LeaveReply(True))
        return Handled(None, LeaveReply(False))

    def _move(self, command: PlayMove, now: float) -> Handled:
        seat = self.seat_of(command.conn)
        if seat is None:
            if command.conn in self.spectators:
                raise RoomError(ErrorCode.NOT_A_PLAYER, "spectators cannot move")
            raise RoomError(ErrorCode.NOT_JOINED, "join the room before moving")
        applied = seat.moves.get(command.move_id)
        if applied is not None:  # a retry of a move that landed: acknowledge, never replay
            return Handled(None, MoveReply(command.move_id, applied, duplicate=True))
        status = self.status
        if status is Status.WAITING:
            free = self.rules.players - len(self.seats)
            raise RoomError(
                ErrorCode.NOT_STARTED, f"the game starts when {free} more player(s) join"
            )
        if status is Status.FINISHED:
            assert self.game.outcome is not None
            raise RoomError(
                ErrorCode.GAME_OVER, f"the game is over ({self.game.outcome.reason.value})"
            )
        if not self.game_version <= command.version <= self.version:
            where = "ahead of" if command.version > self.version else "older than"
            raise RoomError(
                ErrorCode.STALE_VERSION,
                f"version {command.version} is {where} the game (version {self.version}, "
                f"last game change at {self.game_version}); sync and try again",
            )
        try:
            landed = self.game.play(command.request, mark=seat.mark)
        except GameError as exc:
            raise from_game_error(exc) from exc
        version = self._bump(now)
        self.game_version = version
        seat.moves[command.move_id] = version
        event = events.moved(
            version,
            seat.mark,
            landed,
            ply=self.game.ply,
            turn=self.turn,
            status=self.status.value,
            outcome=self.game.outcome,
        )
        return Handled(event, MoveReply(command.move_id, version, duplicate=False))

    # -- views ----------------------------------------------------------------------------

    def snapshot(self) -> dict[str, Any]:
        """The full state everyone may see (protocol.md, "The snapshot"): no tokens."""
        marks = self.rules.marks
        moves = [
            {"mark": marks[i % len(marks)], **move.to_dict()}
            for i, move in enumerate(self.game.history)
        ]
        outcome = self.game.outcome
        return {
            "room_id": self.room_id,
            "public": self.public,
            "rules": self.rules.to_dict(),
            "status": self.status.value,
            "board": self.game.board.text,
            "turn": self.turn,
            "ply": self.game.ply,
            "moves": moves,
            "outcome": outcome.to_dict() if outcome is not None else None,
            "players": [seat.public() for seat in self.seats],
            "seats": self.rules.players,
            "spectators": len(self.spectators),
            "version": self.version,
        }

    def summary(self) -> dict[str, Any]:
        """One line of the public room list."""
        return {
            "room_id": self.room_id,
            "rules": self.rules.to_dict(),
            "status": self.status.value,
            "players": [seat.public() for seat in self.seats],
            "seats": self.rules.players,
            "spectators": len(self.spectators),
            "version": self.version,
        }

    def __repr__(self) -> str:
        return (
            f"<Room {self.room_id} v{self.version} {self.status.value} "
            f"{self.rules.describe()} {self.game.board.text}>"
        )
