"""The events a room emits: one per change, each carrying the room's new version.

Events are plain dicts ready for the wire; they are encoded to JSON once per change, kept
in the room's bounded event log and broadcast unchanged to every connection of the room.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from core import Move, Outcome

__all__ = ["EventType", "moved", "player_joined", "presence", "spectators"]


class EventType(StrEnum):
    PLAYER_JOINED = "player_joined"
    PRESENCE = "presence"
    SPECTATORS = "spectators"
    MOVED = "moved"


def player_joined(version: int, player: dict[str, Any], status: str) -> dict[str, Any]:
    return {
        "type": EventType.PLAYER_JOINED.value,
        "version": version,
        "player": player,
        "status": status,
    }


def presence(version: int, mark: str, connected: bool) -> dict[str, Any]:
    return {
        "type": EventType.PRESENCE.value,
        "version": version,
        "mark": mark,
        "connected": connected,
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
    }
