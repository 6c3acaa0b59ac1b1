"""The events a room emits: one per change, each carrying the room's new version.

Events are plain dicts ready for the wire; they are encoded to JSON once per change, kept
in the room's bounded event log and broadcast unchanged to every connection of the room.
The room adds what every event carries (``due``) and what game events carry (``clock``,
``offers``) before committing.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from core import Move, Outcome

__all__ = [
    "EventType",
    "declined",
    "game_over",
    "moved",
    "new_game",
    "offered",
    "player_joined",
    "presence",
    "rated",
    "spectators",
    "undone",
]


class EventType(StrEnum):
    PLAYER_JOINED = "player_joined"
    PRESENCE = "presence"
    SPECTATORS = "spectators"
    MOVED = "moved"
    GAME_OVER = "game_over"
    DRAW_OFFERED = "draw_offered"
    DRAW_DECLINED = "draw_declined"
    TAKEBACK_OFFERED = "takeback_offered"
    TAKEBACK_DECLINED = "takeback_declined"
    UNDONE = "undone"
    REMATCH_OFFERED = "rematch_offered"
    NEW_GAME = "new_game"
    RATED = "rated"


def player_joined(version: int, player: dict[str, Any], status: str) -> dict[str, Any]:
    return {
        "type": EventType.PLAYER_JOINED.value,
        "version": version,
        "player": player,
        "status": status,
    }


def presence(version: int, player: dict[str, Any]) -> dict[str, Any]:
    """``player`` is the seat's public view; the event repeats its presence fields."""
    return {
        "type": EventType.PRESENCE.value,
        "version": version,
        "mark": player["mark"],
        "connected": player["connected"],
        "away_since": player["away_since"],
        "left": player["left"],
        "claimable_at": player["claimable_at"],
    }


def spectators(version: int, count: int) -> dict[str, Any]:
    return {"type": EventType.SPECTATORS.value, "version": version, "count": count}


def moved(
    version: int,
    mark: str,
    move: Move,
    *,
    ply: int,
    turn: str | None,
    status: str,
    outcome: Outcome | None,
    at: float,
) -> dict[str, Any]:
    return {
        "type": EventType.MOVED.value,
        "version": version,
        "mark": mark,
        "row": move.row,
        "col": move.col,
        "layer": move.layer,
        "ply": ply,
        "turn": turn,
        "status": status,
        "outcome": outcome.to_dict() if outcome is not None else None,
        "at": at,
    }


def game_over(
    version: int,
    outcome: Outcome,
    *,
    by: str | None,
    players: list[dict[str, Any]],
    at: float,
) -> dict[str, Any]:
    return {
        "type": EventType.GAME_OVER.value,
        "version": version,
        "status": "finished",
        "turn": None,
        "outcome": outcome.to_dict(),
        "by": by,
        "players": players,
        "at": at,
    }


def rated(version: int, change: dict[str, Any]) -> dict[str, Any]:
    """The ratings a rated game changed (rooms.room.rated): ``game_number``, ``pool`` and
    ``rating_change`` by mark."""
    return {"type": EventType.RATED.value, "version": version, **change}


_OFFERED = {
    "draw": EventType.DRAW_OFFERED,
    "takeback": EventType.TAKEBACK_OFFERED,
    "rematch": EventType.REMATCH_OFFERED,
}
_DECLINED = {"draw": EventType.DRAW_DECLINED, "takeback": EventType.TAKEBACK_DECLINED}


def offered(version: int, kind: str, by: str) -> dict[str, Any]:
    """A draw offer, a takeback request or a rematch vote by ``by``."""
    return {"type": _OFFERED[kind].value, "version": version, "by": by}


def declined(version: int, kind: str, by: str) -> dict[str, Any]:
    return {"type": _DECLINED[kind].value, "version": version, "by": by}


def undone(
    version: int,
    *,
    by: str,
    moves: Sequence[tuple[str, Move]],
    board: str,
    ply: int,
    turn: str,
    status: str,
) -> dict[str, Any]:
    return {
        "type": EventType.UNDONE.value,
        "version": version,
        "by": by,
        "moves": [{"mark": mark, **move.to_dict()} for mark, move in moves],
        "board": board,
        "ply": ply,
        "turn": turn,
        "status": status,
    }


def new_game(
    version: int,
    *,
    game_number: int,
    marks: dict[str, str],
    players: list[dict[str, Any]],
    board: str,
    turn: str,
    status: str,
    started_at: float,
) -> dict[str, Any]:
    return {
        "type": EventType.NEW_GAME.value,
        "version": version,
        "game_number": game_number,
        "marks": marks,
        "players": players,
        "board": board,
        "ply": 0,
        "turn": turn,
        "status": status,
        "started_at": started_at,
    }
