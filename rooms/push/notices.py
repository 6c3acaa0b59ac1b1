"""Which players a commit should notify: sans-I/O, from the room as just committed.

A notice goes to a player only when the commit itself changed something for them and they
have no connection to the room (a player watching the game hears it there; a push on top
would be noise): the commit gave their seat the turn (a move, the game's start, a takeback,
a rematch: ``turn_started`` is the commit's own time), or it ended the game (``ended_at``
is). Seats without an identity (guests, bots) cannot be notified, having no subscriptions.
Each commit is observed once, by the worker that made it, so each turn is told at most once.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from core import ended_because
from rooms.room.room import Room
from rooms.room.seats import Seat

__all__ = ["Notice", "NoticeKind", "notices_of"]


class NoticeKind(StrEnum):
    TURN = "turn"
    ENDED = "ended"


@dataclass(frozen=True, slots=True)
class Notice:
    """One push to one identity: what happened in which room, in words for the notification."""

    player_id: str
    room_id: str
    kind: NoticeKind
    title: str
    body: str
    version: int

    def payload(self) -> dict[str, Any]:
        """The JSON the service worker receives (docs/protocol.md, Web Push)."""
        return {
            "kind": self.kind.value,
            "room_id": self.room_id,
            "version": self.version,
            "title": self.title,
            "body": self.body,
            "url": f"/r/{self.room_id}",
            "tag": f"room:{self.room_id}",
        }


def _absent(seat: Seat | None) -> str | None:
    """The seat's identity when it has one and no open connection (None otherwise)."""
    if seat is None or seat.bot is not None or seat.connections:
        return None
    return seat.player_id


def _opponents(room: Room, seat: Seat) -> str:
    names = [other.name for other in room.seats if other is not seat]
    return " and ".join(names) if names else "your opponent"


def notices_of(room: Room) -> list[Notice]:
    """The notices the commit that made ``room`` as it is calls for (most commits: none)."""
    if room.game.is_over:
        if room.ended_at is None or room.ended_at != room.updated:
            return []
        outcome = room.game.outcome
        assert outcome is not None
        notices = []
        for seat in room.seats:
            player_id = _absent(seat)
            if player_id is None:
                continue
            if outcome.winner == seat.mark:
                title = "You won"
            elif outcome.is_draw:
                title = "A draw"
            elif outcome.winner is None:
                title = "Game over"
            else:
                title = "You lost"
            body = f"Against {_opponents(room, seat)}: {ended_because(outcome.reason)}."
            notices.append(
                Notice(player_id, room.room_id, NoticeKind.ENDED, title, body, room.version)
            )
        return notices
    if room.turn_started is None or room.turn_started != room.updated:
        return []
    to_move = room.seat_by_mark(room.game.turn)
    player_id = _absent(to_move)
    if player_id is None or to_move is None or len(room.seats) < room.rules.players:
        return []
    body = f"Against {_opponents(room, to_move)}, move {room.game.ply + 1}."
    return [Notice(player_id, room.room_id, NoticeKind.TURN, "Your move", body, room.version)]
