"""``GET /api/fairplay/{player_id}`` and ``GET /api/fairplay``: the fair-play ledger, for
operators only (rooms.fairplay; docs/operations.md, "Fair play").

Both answer only when the server has an operator token (``--operator-token``) and the
request carries it (``Authorization: Bearer``): without a token set they are ``404
not_found``, as if absent, and with a wrong or missing one ``401 bad_identity``. A
player's summary is their games judged, critical positions, matches, rate and whether
they are flagged; the list is the flagged players' summaries.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from rooms import ErrorCode, RoomError

from ..metrics import authorized
from ..state import app_state
from .responses import error_response

__all__ = ["FLAGGED_LIMIT", "fairplay_routes"]

FLAGGED_LIMIT = 100


def _refusal(request: Request) -> Response | None:
    token = app_state(request.app).settings.operator_token
    if not token:
        return error_response(RoomError(ErrorCode.NOT_FOUND, "no such endpoint"))
    if not authorized(token, request.headers.get("authorization")):
        return error_response(
            RoomError(ErrorCode.BAD_IDENTITY, "the operators' API needs the operator token")
        )
    return None


async def player_summary(request: Request) -> Response:
    refused = _refusal(request)
    if refused is not None:
        return refused
    ledger = app_state(request.app).backend.fairplay
    try:
        summary = await ledger.summary(request.path_params["player_id"])
    except RoomError as exc:
        return error_response(exc)
    return JSONResponse(summary.public())


async def flagged_players(request: Request) -> Response:
    refused = _refusal(request)
    if refused is not None:
        return refused
    ledger = app_state(request.app).backend.fairplay
    try:
        players = [await ledger.summary(p) for p in await ledger.flagged(FLAGGED_LIMIT)]
    except RoomError as exc:
        return error_response(exc)
    return JSONResponse({"flagged": [summary.public() for summary in players]})


def fairplay_routes() -> list[Route]:
    return [
        Route("/api/fairplay", flagged_players, methods=["GET"]),
        Route("/api/fairplay/{player_id}", player_summary, methods=["GET"]),
    ]
