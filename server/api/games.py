"""A player's correspondence games over HTTP: ``GET /api/players/{player_id}/games``.

The lobby's "your turn": the games of the identity whose secret comes as ``Authorization:
Bearer <secret>`` (any device holding it sees the same list), its move first with the time
left (rooms.correspondence). An unknown id and a wrong secret get the same ``401
bad_identity``, as for renaming.
"""

from __future__ import annotations

from typing import cast

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from rooms import RoomError
from rooms.backends.due import DueIndex
from rooms.correspondence import player_games
from rooms.players import verified

from ..state import app_state
from .players import bearer_credentials, refused

__all__ = ["game_routes"]


async def list_games(request: Request) -> Response:
    state = app_state(request.app)
    try:
        player = await verified(state.backend.players, bearer_credentials(request))
        index = cast(DueIndex, state.backend.store)  # every store keeps them (rooms.backends)
        games = await player_games(state.service, index, player.player_id)
    except RoomError as exc:
        return refused(exc)
    return JSONResponse({"player_id": player.player_id, "now": state.service.now(), "games": games})


def game_routes() -> list[Route]:
    return [Route("/api/players/{player_id}/games", list_games, methods=["GET"])]
