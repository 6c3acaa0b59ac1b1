"""The HTTP endpoints: create, list and read rooms; liveness and readiness.

Every error body is ``{"code", "message"}`` with a stable code (plus ``field`` for
``invalid_rules``), as docs/protocol.md describes.
"""

from __future__ import annotations

import gc
import math
import os
import socket
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Match, Route

from rooms import ErrorCode, RoomError, queue_key, quick_play
from rooms.players import verified
from rooms.protocol import ENCODES, dumps
from rooms.room import current_record, format_record

from .crash_points import AFTER_SEAT, crash_point
from .metrics import edge as metrics
from .room_options import parse_quickplay, parse_room
from .state import app_state
from .write_guard import check_write

__all__ = ["error_response", "read_body", "routes"]

_STATUS = {
    ErrorCode.BAD_MESSAGE: 400,
    ErrorCode.TOO_LARGE: 413,
    ErrorCode.INVALID_RULES: 422,
    ErrorCode.INVALID_OPTIONS: 422,
    ErrorCode.INVALID_NAME: 422,
    ErrorCode.NOT_RATED: 422,
    ErrorCode.BAD_IDENTITY: 401,
    ErrorCode.ROOM_NOT_FOUND: 404,
    ErrorCode.PLAYER_NOT_FOUND: 404,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.ORIGIN_NOT_ALLOWED: 403,
    ErrorCode.UNSUPPORTED_MEDIA_TYPE: 415,
    ErrorCode.UNAVAILABLE: 503,
    ErrorCode.BUSY: 503,
    ErrorCode.TOURNAMENT_CLOSED: 409,
    ErrorCode.TOURNAMENT_FULL: 409,
    ErrorCode.NOT_CREATOR: 403,
    ErrorCode.IDENTITY_REQUIRED: 400,
}


_ANY = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def error_response(exc: RoomError) -> JSONResponse:
    body: dict[str, Any] = {"code": exc.code.value, "message": exc.message}
    if exc.field is not None:
        body["field"] = exc.field
    headers = None
    if exc.retry_after is not None:
        body["retry_after"] = exc.retry_after
        headers = {"Retry-After": str(math.ceil(exc.retry_after))}  # whole seconds (RFC 9110)
    metrics.error(exc.code, "http")
    return JSONResponse(body, status_code=_STATUS.get(exc.code, 500), headers=headers)


async def read_body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise RoomError(ErrorCode.TOO_LARGE, f"a request body may be at most {limit} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise RoomError(ErrorCode.TOO_LARGE, f"a request body may be at most {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def _links(request: Request, room_id: str) -> dict[str, str]:
    base = str(request.base_url).rstrip("/")
    ws_base = "wss" + base[5:] if base.startswith("https") else "ws" + base[4:]
    return {
        "play": f"{base}/r/{room_id}",
        "watch": f"{base}/r/{room_id}/watch",
        "ws": f"{ws_base}/ws/{room_id}",
    }


async def create_room(request: Request) -> Response:
    state = app_state(request.app)
    try:
        check_write(request, state.settings.allowed_origins)
        state.lag.check("room")
        raw = await read_body(request, state.settings.max_body_bytes)
        body = parse_room(raw, state.settings)
        room = await state.service.create(
            body.rules,
            public=body.public,
            settings=state.settings.room_settings(body.time_control, pool=body.pool),
            bot=body.bot,
        )
        # quick play may match players into it (not into a rated room: it seats identities)
        if room.listed and body.bot is None and body.pool is None:
            key = queue_key(room.rules, body.time_control)
            await state.quickplay.push(key, room.room_id)
    except RoomError as exc:
        return error_response(exc)
    tc = room.settings.time_control
    answer = {
        "room_id": room.room_id,
        "public": room.public,
        "rules": room.rules.to_dict(),
        "version": room.version,
        "links": _links(request, room.room_id),
        "bot": body.bot[0] if body.bot is not None else None,
        "time_control": tc.to_dict() if tc is not None else None,
        "rated": room.settings.rated,
        "pool": room.settings.pool,
    }
    # The same compact JSON as JSONResponse's, from orjson (rooms.common.jsontext): every new
    # room answers this, and the json module is much slower.
    return Response(dumps(answer), status_code=201, media_type="application/json")


async def quickplay(request: Request) -> Response:
    state = app_state(request.app)
    try:
        check_write(request, state.settings.allowed_origins)
        state.lag.check("quickplay")
        raw = await read_body(request, state.settings.max_body_bytes)
        body = parse_quickplay(raw, state.settings)
        settings = state.settings.room_settings(body.time_control)
        # the identity is read before any seat is taken: bad_identity changes nothing
        player = await verified(state.backend.players, body.player) if body.player else None
        matched = await quick_play(
            state.service,
            state.quickplay,
            body.rules,
            settings,
            name=body.name or (player.name if player is not None else None),
            join_key=body.join_key,
            player_id=player.player_id if player is not None else None,
        )
    except RoomError as exc:
        return error_response(exc)
    crash_point(AFTER_SEAT)  # the seat is taken, its token not yet sent: only tests crash here
    room = matched.room
    tc = room.settings.time_control
    answer = {
        "room_id": room.room_id,
        "mark": matched.reply.mark,
        "token": matched.reply.token,
        "matched": matched.matched,
        "rules": room.rules.to_dict(),
        "time_control": tc.to_dict() if tc is not None else None,
        "links": _links(request, room.room_id),
    }
    return JSONResponse(answer, headers={"Cache-Control": "no-store"})


async def game_record(request: Request) -> Response:
    """The current game (or ``?game=N``) as a plain text record."""
    state = app_state(request.app)
    try:
        room = await state.service.load(request.path_params["room_id"])
        wanted = request.query_params.get("game")
        record = current_record(room)
        if wanted is not None and wanted != str(room.game_number):
            found = [g for g in room.games if str(g["game_number"]) == wanted]
            if not found:
                raise RoomError(ErrorCode.NOT_FOUND, f"room has no game {wanted!r:.20}")
            record = found[0]
    except RoomError as exc:
        return error_response(exc)
    text = format_record(room.room_id, room.rules, record)
    name = f"{room.room_id}-{record['game_number']}.txt"
    return PlainTextResponse(text, headers={"Content-Disposition": f'inline; filename="{name}"'})


async def list_rooms(request: Request) -> Response:
    state = app_state(request.app)
    try:
        rooms = await state.service.list_public(state.settings.list_limit)
    except RoomError as exc:
        return error_response(exc)
    return JSONResponse({"rooms": rooms})


async def get_room(request: Request) -> Response:
    state = app_state(request.app)
    try:
        snapshot = await state.service.snapshot(request.path_params["room_id"])
    except RoomError as exc:
        return error_response(exc)
    return JSONResponse(snapshot)


async def healthz(request: Request) -> Response:
    return JSONResponse({"status": "ok"})


async def readyz(request: Request) -> Response:
    state = app_state(request.app)
    store = state.backend.store
    connections = state.connections
    if connections.near_full:  # server.capacity: new clients should go to another worker
        body = {
            "status": "full",
            "code": ErrorCode.UNAVAILABLE.value,
            "message": f"{connections.open} of {connections.limit} connections open",
            "store": store.name,
        }
        return JSONResponse(body, status_code=503)
    try:
        await store.ping()
    except RoomError as exc:
        body = {"status": "unavailable", "store": store.name, "message": exc.message}
        return JSONResponse(body, status_code=503)
    return JSONResponse({"status": "ready", "store": store.name})


async def stats(request: Request) -> Response:
    """This worker's counters, for tictactoe bench and operators: the messages it encoded by
    type (one per event whatever the receivers), the commits it lost to another writer,
    whether the fastpath is on, and its garbage collector (server.fastpath.collector). Per
    process: with several workers each answers for itself, named by ``host``, ``pid`` and
    ``worker`` (its presence id, which its connection ids carry); GET /metrics sums them."""
    state = app_state(request.app)
    collector = {
        "frozen": gc.get_freeze_count(),
        "threshold": list(gc.get_threshold()),
        "collections": [generation["collections"] for generation in gc.get_stats()],
    }
    if state.collector is not None:
        collector.update(state.collector.stats())
    return JSONResponse(
        {
            "host": socket.gethostname(),
            "pid": os.getpid(),
            "worker": state.presence.worker,
            "encodes": dict(ENCODES),
            "conflicts": state.service.conflicts,
            "fastpath": state.settings.fastpath,
            "gc": collector,
        }
    )


async def api_not_found(request: Request) -> Response:
    """Any other /api path or method: 405 when the path exists with other methods, else 404."""
    allowed = sorted(
        method
        for route in request.app.router.routes
        if isinstance(route, Route)
        and route.endpoint is not api_not_found
        and route.matches(request.scope)[0] is Match.PARTIAL
        for method in route.methods or ()
    )
    if allowed:
        message = f"{request.method} is not allowed on {request.url.path!r:.80}"
        response = error_response(RoomError(ErrorCode.BAD_MESSAGE, message))
        response.status_code = 405
        response.headers["Allow"] = ", ".join(allowed)
        return response
    return error_response(RoomError(ErrorCode.NOT_FOUND, f"no endpoint {request.url.path!r:.80}"))


def routes() -> list[Route]:
    return [
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms", list_rooms, methods=["GET"]),
        Route("/api/rooms/{room_id}", get_room, methods=["GET"]),
        Route("/api/rooms/{room_id}/record.txt", game_record, methods=["GET"]),
        Route("/api/quickplay", quickplay, methods=["POST"]),
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/api/stats", stats, methods=["GET"]),
        Route("/api/{rest:path}", api_not_found, methods=_ANY),
    ]
