"""Ratings over HTTP: ``GET /api/leaderboards/{pool}``, and the ratings of a player's page.

A leaderboard ranks established players only: a provisional rating (deviation above
``core.glicko2.PROVISIONAL_DEVIATION``) is too unsure to rank, as on lichess, so it joins
the board with the game that makes it established. Until then it is listed apart
(``provisional``, best first, unranked), each with about how many games it still needs.
``?around=PLAYER_ID`` adds that player's place and neighbours (or, while provisional, no
place). Reads are public and need no write
guard; they show player ids and names, which ``GET /api/players/{id}`` shows anyone anyway.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from rooms import ErrorCode, RoomError
from rooms.common.ids import valid_player_id
from rooms.ratings import POOLS, valid_pool

from ..state import AppState, app_state
from .responses import error_response

__all__ = ["player_ratings", "rating_routes"]

DEFAULT_LIMIT = 20
MAX_LIMIT = 100
NEIGHBOURS = 5
"""Places shown above and below the player of ``?around``."""
RECENT_GAMES = 10


def _limit(request: Request) -> int:
    raw = request.query_params.get("limit")
    if raw is None:
        return DEFAULT_LIMIT
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_LIMIT:
        raise RoomError(
            ErrorCode.BAD_MESSAGE,
            f"limit must be a whole number from 1 to {MAX_LIMIT}, got {raw!r:.20}",
        )
    return int(raw)


async def _rows(
    state: AppState, pool: str, ranked: list[tuple[str, float]], first: int | None
) -> list[dict[str, Any]]:
    """Leaderboard rows from place ``first`` (0-based) on, with names and standings; a player
    whose identity expired is left out (the board forgets no one by itself). ``first`` None:
    provisional players, who have no place."""
    players = await asyncio.gather(*(state.backend.players.get(pid) for pid, _ in ranked))
    standings = await asyncio.gather(
        *(state.backend.ratings.standing(pool, pid) for pid, _ in ranked)
    )
    rows = []
    for place, ((pid, _), player, standing) in enumerate(
        zip(ranked, players, standings, strict=True), start=first or 0
    ):
        if player is None or standing is None:
            continue
        rank = place + 1 if first is not None else None
        row = {"rank": rank, "player_id": pid, "name": player.name, "bot": player.bot}
        rows.append({**row, **standing.public()})
    return rows


async def leaderboard(request: Request) -> Response:
    state = app_state(request.app)
    pool = request.path_params["pool"]
    try:
        if not valid_pool(pool):
            raise RoomError(
                ErrorCode.NOT_FOUND, f"no rating pool {pool!r:.40} (pools: {', '.join(POOLS)})"
            )
        limit = _limit(request)
        book = state.backend.ratings
        answer: dict[str, Any] = {
            "pool": pool,
            "top": await _rows(state, pool, await book.top(pool, limit), 0),
            "provisional": await _rows(state, pool, await book.provisional(pool, limit), None),
            "around": None,
        }
        around = request.query_params.get("around")
        if around is not None:
            standing = await book.standing(pool, around) if valid_player_id(around) else None
            if standing is None:
                raise RoomError(
                    ErrorCode.PLAYER_NOT_FOUND, f"player {around!r:.40} is not rated in {pool}"
                )
            place = await book.rank(pool, around)
            neighbours: list[dict[str, Any]] = []
            if place is not None:
                start = max(0, place - NEIGHBOURS)
                window = await book.window(pool, start, place + NEIGHBOURS)
                neighbours = await _rows(state, pool, window, start)
            answer["around"] = {
                "player_id": around,
                "rank": place + 1 if place is not None else None,
                **standing.public(),
                "neighbours": neighbours,
            }
    except RoomError as exc:
        return error_response(exc)
    return JSONResponse(answer)


async def player_ratings(state: AppState, player_id: str) -> dict[str, Any]:
    """A player page's ratings: per pool where the player is rated, the standing and its
    history (newest first); and the recent rated games across pools with their records."""
    book = state.backend.ratings
    standings = await asyncio.gather(*(book.standing(pool, player_id) for pool in POOLS))
    rated = [(pool, s) for pool, s in zip(POOLS, standings, strict=True) if s is not None]
    histories = await asyncio.gather(*(book.history(pool, player_id) for pool, _ in rated))
    ratings = {
        pool: {**standing.public(), "history": history}
        for (pool, standing), history in zip(rated, histories, strict=True)
    }
    games = [
        {
            "pool": pool,
            **entry,
            "record": f"/api/rooms/{entry['room_id']}/record.txt?game={entry['game_number']}",
        }
        for (pool, _), history in zip(rated, histories, strict=True)
        for entry in history
    ]
    games.sort(key=lambda game: game["at"], reverse=True)
    return {"ratings": ratings, "recent_games": games[:RECENT_GAMES]}


def rating_routes() -> list[Route]:
    """The routes, to go before the API's ``/api`` catch-all (server.api, it answers 404)."""
    return [Route("/api/leaderboards/{pool}", leaderboard, methods=["GET"])]
