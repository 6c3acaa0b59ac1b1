"""Online tournaments: round robin, arena, Swiss and knockout (docs/tournaments.md).

``TournamentRecord`` is the whole state of one tournament with a version, changed sans I/O;
``TournamentShelf`` stores it with compare-and-set (``MemoryShelf``;
``rooms.backends.redis.tournaments.RedisShelf``); ``TournamentService`` is the one write
path; ``rooms.tournaments.director.Director``, one on each worker, does the due work (rooms,
results, rounds, an arena's pairings). It is imported from its module: it needs the room
service, which this package, opened beside every backend, must not import.
"""

from __future__ import annotations

from rooms.tournaments.record import (
    ARENA,
    BOT_PREFIX,
    KINDS,
    KNOCKOUT,
    MISSES_TO_WITHDRAW,
    ROUND_ROBIN,
    SWISS,
    Entrant,
    Game,
    Status,
    TournamentRecord,
    game_room_id,
)
from rooms.tournaments.service import TournamentService
from rooms.tournaments.shelf import TOURNAMENT_TTL, MemoryShelf, TournamentShelf

__all__ = [
    "ARENA",
    "BOT_PREFIX",
    "KINDS",
    "KNOCKOUT",
    "MISSES_TO_WITHDRAW",
    "ROUND_ROBIN",
    "SWISS",
    "TOURNAMENT_TTL",
    "Entrant",
    "Game",
    "MemoryShelf",
    "Status",
    "TournamentRecord",
    "TournamentService",
    "TournamentShelf",
    "game_room_id",
]
