"""Web Push subscriptions over HTTP: ``GET /api/push/key``, and ``POST`` / ``DELETE
/api/players/{id}/push`` to subscribe a browser of an identity or unsubscribe it.

The key is the server's VAPID public key, which a browser subscribes with. Subscribing
needs the identity's secret as ``Authorization: Bearer <secret>`` (an unknown id and a wrong
secret get the same ``401 bad_identity``, as a rename does); the body is what the browser's
``PushSubscription.toJSON()`` gives. The write guard (Origin, JSON) comes first, as for every
write of the API.
"""

from __future__ import annotations

from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from rooms import ErrorCode, RoomError
from rooms.players import verified
from rooms.push import subscription_of

from ..guards.write_guard import check_write
from ..state import app_state
from .players import bearer_credentials, refused
from .responses import error_response, read_body
from .room_options import json_object

__all__ = ["push_routes"]

_SUBSCRIBE_FIELDS = ("endpoint", "keys", "expirationTime")
_UNSUBSCRIBE_FIELDS = ("endpoint",)


def _push_on(request: Request) -> Any:
    """The worker's sender, or ``503 unavailable`` before its key is known."""
    dispatch = app_state(request.app).push
    sender = dispatch.sender if dispatch is not None else None
    if sender is None:
        raise RoomError(ErrorCode.UNAVAILABLE, "web push is not ready yet; try again")
    return sender


async def push_key(request: Request) -> Response:
    try:
        sender = _push_on(request)
    except RoomError as exc:
        return error_response(exc)
    return JSONResponse({"public_key": sender.key.public_key})


async def subscribe(request: Request) -> Response:
    state = app_state(request.app)
    try:
        check_write(request, state.settings.allowed_origins)
        credentials = bearer_credentials(request)
        raw = await read_body(request, state.settings.max_body_bytes)
        data = json_object(raw, _SUBSCRIBE_FIELDS)
        subscription = subscription_of(data, allow_http=state.settings.push_http_endpoints)
        player = await verified(state.backend.players, credentials)
        await state.backend.push.add(player.player_id, subscription)
    except RoomError as exc:
        return refused(exc)
    return JSONResponse({"player_id": player.player_id, "endpoint": subscription.endpoint}, 201)


async def unsubscribe(request: Request) -> Response:
    state = app_state(request.app)
    try:
        check_write(request, state.settings.allowed_origins)
        credentials = bearer_credentials(request)
        raw = await read_body(request, state.settings.max_body_bytes)
        endpoint = json_object(raw, _UNSUBSCRIBE_FIELDS).get("endpoint")
        if not isinstance(endpoint, str) or not endpoint:
            raise RoomError(
                ErrorCode.INVALID_SUBSCRIPTION, "endpoint: a URL is required", field="endpoint"
            )
        player = await verified(state.backend.players, credentials)
        await state.backend.push.remove(player.player_id, endpoint)
    except RoomError as exc:
        return refused(exc)
    return Response(status_code=204)


def push_routes() -> list[Route]:
    """The routes, to go before the API's ``/api`` catch-all (server.api, it answers 404)."""
    return [
        Route("/api/push/key", push_key, methods=["GET"]),
        Route("/api/players/{player_id}/push", subscribe, methods=["POST"]),
        Route("/api/players/{player_id}/push", unsubscribe, methods=["DELETE"]),
    ]
