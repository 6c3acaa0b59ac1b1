"""The HTTP endpoints: create, list and read rooms; liveness and readiness.

Every error body is ``{"code", "message"}`` with a stable code (plus ``field`` for
``invalid_rules``), as docs/protocol.md describes.
"""

from __future__ import annotations

import json
import os
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Match, Route

from rooms import ENCODES, ErrorCode, RoomError

from .state import app_state

__all__ = ["error_response", "routes"]

_STATUS = {
    ErrorCode.BAD_MESSAGE: 400,
    ErrorCode.TOO_LARGE: 413,
    ErrorCode.INVALID_RULES: 422,
    ErrorCode.ROOM_NOT_FOUND: 404,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.UNAVAILABLE: 503,
    ErrorCode.BUSY: 503,
}


_ANY = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def error_response(exc: RoomError) -> JSONResponse:
    body: dict[str, Any] = {"code": exc.code.value, "message": exc.message}
    if exc.field is not None:
        body["field"] = exc.field
    return JSONResponse(body, status_code=_STATUS.get(exc.code, 500))


async def _read_body(request: Request, limit: int) -> bytes:
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
        raw = await _read_body(request, state.settings.max_body_bytes)
        try:
            data: Any = json.loads(raw) if raw.strip() else {}
        except (ValueError, RecursionError):
            raise RoomError(ErrorCode.BAD_MESSAGE, "the body must be a JSON object") from None
        if not isinstance(data, dict):
            message = f"the body must be a JSON object, not {raw!r:.60}"
            raise RoomError(ErrorCode.BAD_MESSAGE, message)
        unknown = sorted(set(data) - {"rules", "public"})
        if unknown:
            raise RoomError(
                ErrorCode.BAD_MESSAGE, f"unknown field {unknown[0]!r:.40} (known: public, rules)"
            )
        public = data.get("public", False)
        if not isinstance(public, bool):
            message = f"public must be true or false, got {public!r:.40}"
            raise RoomError(ErrorCode.BAD_MESSAGE, message)
        rules = data.get("rules", {})
        room = await state.service.create(rules, public=public)
    except RoomError as exc:
        return error_response(exc)
    body = {
        "room_id": room.room_id,
        "public": room.public,
        "rules": room.rules.to_dict(),
        "version": room.version,
        "links": _links(request, room.room_id),
    }
    return JSONResponse(body, status_code=201)


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
    try:
        await store.ping()
    except RoomError as exc:
        body = {"status": "unavailable", "store": store.name, "message": exc.message}
        return JSONResponse(body, status_code=503)
    return JSONResponse({"status": "ready", "store": store.name})


async def stats(request: Request) -> Response:
    """This worker's counters, for tictactoe bench and operators: the messages it encoded by
    type (one per event whatever the receivers) and the commits it lost to another writer.
    Per process: with several workers each answers for itself (``pid`` says which)."""
    state = app_state(request.app)
    return JSONResponse(
        {"pid": os.getpid(), "encodes": dict(ENCODES), "conflicts": state.service.conflicts}
    )


async def api_not_found(request: Request) -> Response:
    """Any other /api path or method: 405 when the path exists with other methods, else 404."""
    allowed = sorted(
        method
        for route in request.app.router.routes
        if isinstance(route, Route) and route.endpoint is not api_not_found
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
        Route("/healthz", healthz, methods=["GET"]),
        Route("/readyz", readyz, methods=["GET"]),
        Route("/api/stats", stats, methods=["GET"]),
        Route("/api/{rest:path}", api_not_found, methods=_ANY),
    ]
