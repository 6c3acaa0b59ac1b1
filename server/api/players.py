"""Guest identities over HTTP: ``POST /api/players``, ``GET`` and ``PATCH /api/players/{id}``.

Creating one is new work, like creating a room: the write guard (Origin, JSON) and admission
(``unavailable`` with ``Retry-After`` while the worker's loop lags) come first. Reading one is
public and shows the id, the name, when it was made and its ratings (server.api.ratings).
Renaming one needs its secret as ``Authorization: Bearer <secret>``; an unknown id and a wrong
secret get the same ``401 bad_identity``, so the answer never tells whether an id exists.
Every answer is ``Cache-Control: no-store`` (server.guards.headers does it for ``/api/``):
the secret is in one.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from rooms import ErrorCode, RoomError
from rooms.common.names import clean_name
from rooms.players import MAX_SECRET, Credentials, bad_identity
from rooms.room import guest_name

from ..guards.write_guard import check_write
from ..state import app_state
from .bearer import bearer_refused, presented_bearer
from .ratings import player_ratings
from .responses import error_response, read_body
from .room_options import json_object

__all__ = ["bearer_credentials", "player_routes", "refused"]

_FIELDS = ("name",)


def _name(data: dict[str, Any], *, required: bool) -> str | None:
    """The body's ``name``, cleaned by the seats' own rule; ``422 invalid_name`` naming it."""
    value = data.get("name")
    if value is None:
        if required:
            raise RoomError(ErrorCode.INVALID_NAME, "name: required", field="name")
        return None
    try:
        return clean_name(value)
    except ValueError as exc:
        raise RoomError(ErrorCode.INVALID_NAME, str(exc), field="name") from None


def bearer_credentials(request: Request) -> Credentials:
    """The path's id and the bearer secret; ``401 bad_identity`` without one."""
    secret = presented_bearer(request)
    if secret is None or len(secret) > MAX_SECRET:
        raise RoomError(
            ErrorCode.BAD_IDENTITY, "send the identity's secret as Authorization: Bearer <secret>"
        )
    return Credentials(request.path_params["player_id"], secret)


def refused(exc: RoomError) -> Response:
    """The error answer of an identity's endpoint (a 401 asks for the identity's secret)."""
    return bearer_refused(exc, "players")


async def create_player(request: Request) -> Response:
    state = app_state(request.app)
    try:
        check_write(request, state.settings.allowed_origins)
        state.lag.check("player")
        raw = await read_body(request, state.settings.max_body_bytes)
        name = _name(json_object(raw, _FIELDS), required=False) or guest_name()
        player, secret = await state.backend.players.create(name)
    except RoomError as exc:
        return error_response(exc)
    return JSONResponse({**player.public(), "secret": secret}, status_code=201)


async def get_player(request: Request) -> Response:
    state = app_state(request.app)
    player_id = request.path_params["player_id"]
    try:
        player = await state.backend.players.get(player_id)
        if player is None:
            raise RoomError(ErrorCode.PLAYER_NOT_FOUND, f"no player {player_id!r:.40}")
        ratings = await player_ratings(state, player.player_id)
    except RoomError as exc:
        return error_response(exc)
    return JSONResponse({**player.public(), **ratings})


async def rename_player(request: Request) -> Response:
    state = app_state(request.app)
    try:
        check_write(request, state.settings.allowed_origins)
        credentials = bearer_credentials(request)
        raw = await read_body(request, state.settings.max_body_bytes)
        name = _name(json_object(raw, _FIELDS), required=True)
        assert name is not None
        player = await state.backend.players.rename(credentials, name)
        if player is None:
            raise bad_identity(credentials)
    except RoomError as exc:
        return refused(exc)
    return JSONResponse(player.public())


def player_routes() -> list[Route]:
    """The routes, to go before the API's ``/api`` catch-all (server.api, it answers 404)."""
    return [
        Route("/api/players", create_player, methods=["POST"]),
        Route("/api/players/{player_id}", get_player, methods=["GET"]),
        Route("/api/players/{player_id}", rename_player, methods=["PATCH"]),
    ]
