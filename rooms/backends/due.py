"""The store's index of correspondence deadlines, and of each player's correspondence games.

A correspondence game (days per move) may wait weeks for a move, longer than any worker need
stay up, so its deadline is kept by the store: every commit of such a room carries a
``DueChange`` that the store applies in the same atomic step as the commit (one Redis: inside
the commit script; memory: under the commit's lock), so the index always holds exactly the
committed room's deadline. Every worker scans the index (rooms.correspondence.scanner) and ends
a game whose deadline passed with a ``Tick`` through the versioned commit: however many workers
scan, and whichever dies meanwhile, the game ends once.

The same change keeps the room alive at least ``keep`` seconds untouched (its idle TTL covers the
deadline), and records the room under each seated player's identity, so the lobby can show a
player their games (``player_rooms``). That record is only a list to read: a Redis Cluster, or a
worker dying between the commit and it, may miss it until the room's next commit writes it
again, and readers drop the games that are over or gone (``forget_player_room``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable

__all__ = ["DueChange", "DueIndex"]


@dataclass(frozen=True, slots=True)
class DueChange:
    """What a commit of a correspondence room does besides: ``at``, the room's deadline after
    it (None: it has none, so it leaves the index); ``keep``, the seconds it must live untouched
    at least; ``players``, the identities seated in it."""

    at: float | None
    keep: float
    players: tuple[str, ...] = ()


@runtime_checkable
class DueIndex(Protocol):
    """A store that keeps deadlines (its ``swap`` takes ``due: DueChange``)."""

    async def due_rooms(self, now: float, limit: int) -> list[tuple[str, float]]:
        """Up to ``limit`` rooms whose deadline is at or before ``now``, earliest first, each
        with its deadline as indexed."""

    async def repair_due(self, room_id: str, seen: float, at: float | None) -> bool:
        """If the index still holds ``room_id`` at ``seen``, index it at ``at`` instead (None:
        unindex it) and answer True: the repair of an entry found wrong (a room gone, or a
        Cluster's second step lost), which never undoes a commit's newer entry."""

    async def player_rooms(self, player_id: str, limit: int) -> list[str]:
        """Up to ``limit`` correspondence rooms recorded under ``player_id``."""

    async def forget_player_room(self, player_id: str, room_id: str) -> None:
        """Drop ``room_id`` from ``player_id``'s record (its game is over, or it is gone)."""
