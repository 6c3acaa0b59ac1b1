"""``GET /api/tournaments/{id}/games.txt``: every game of a tournament as text records.

Each game is its room's record (``rooms.room.record.format_record``, what
``/api/rooms/{id}/record.txt`` gives and ``tictactoe play --replay`` reads), headed by the
tournament's name, the round (an arena's pairing) and, for a forfeit, who forfeited; records
are separated by a blank line, in the schedule's order. A game whose room is gone (finished
rooms are kept a day, the tournament a week) or never existed (forfeited before it was made)
keeps its players and result with no moves and a ``Note`` saying why.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response

from core import Rules
from rooms import ErrorCode, RoomError
from rooms.room.delayed import public_record
from rooms.room.record import format_record
from rooms.room.room import Room
from rooms.tournaments import Game, TournamentRecord
from rooms.tournaments.record import DRAW

from ..state import AppState, app_state
from .responses import error_response

__all__ = ["game_records"]

LOADS_AT_ONCE = 32
"""Rooms read from the store at the same time (a big arena has hundreds of games)."""


async def game_records(request: Request) -> Response:
    state = app_state(request.app)
    try:
        record = await state.tournaments.get(request.path_params["tournament_id"])
        games = [g for g in record.games if g.result is not None or g.room is not None]
        texts: list[str] = []
        for start in range(0, len(games), LOADS_AT_ONCE):
            batch = games[start : start + LOADS_AT_ONCE]
            texts += await asyncio.gather(*(_text(state, record, g) for g in batch))
    except RoomError as exc:
        return error_response(exc)
    disposition = f'attachment; filename="tournament-{record.id}-games.txt"'
    return PlainTextResponse("\n".join(texts), headers={"Content-Disposition": disposition})


async def _text(state: AppState, record: TournamentRecord, game: Game) -> str:
    names = {e.id: e.name for e in record.entrants}
    headers: list[tuple[str, object]] = [("Tournament", record.name), ("Round", game.round)]
    if game.forfeit is not None:
        headers.append(("Forfeit", names[game.forfeit]))
    rules = Rules.from_dict(record.rules)
    if game.room is not None:
        try:
            room = await state.service.load(game.room)
        except RoomError as exc:
            if exc.code is not ErrorCode.ROOM_NOT_FOUND:
                raise
        else:
            return format_record(
                room.room_id, rules, _first(room, state.service.now()), extra=headers
            )
    note = "the room has expired" if game.room is not None else "forfeited before it was played"
    headers.append(("Note", f"{note}: no moves kept"))
    winner = None if game.result in (None, DRAW) else ("X" if game.result == game.first else "O")
    stub = {
        "game_number": 1,
        "players": [
            {"mark": "X", "name": names[game.first]},
            {"mark": "O", "name": names[game.second]},
        ],
        "moves": [],
        "outcome": None
        if game.result is None
        else {"reason": "forfeit" if game.forfeit else "room_expired", "winner": winner},
        "started_at": None,
    }
    return format_record(game.room or "-", rules, stub, extra=headers)


def _first(room: Room, now: float) -> dict[str, Any]:
    """A tournament room's one game (it has no rematch), delayed while its spectators' is."""
    if room.game_number == 1:
        return public_record(room, now)
    return next(g for g in room.games if g["game_number"] == 1)
