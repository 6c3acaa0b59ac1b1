"""What every HTTP endpoint answers on error, and how a request body is read.

Every error body is ``{"code", "message"}`` with a stable code (plus ``field`` for
``invalid_rules``, ``retry_after`` when the client should wait), as docs/protocol.md
describes; the status follows the code.
"""

from __future__ import annotations

import math
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Match, Route

from rooms import ErrorCode, RoomError

from ..metrics import edge as metrics

__all__ = ["api_not_found", "error_response", "read_body"]

_STATUS = {
    ErrorCode.BAD_MESSAGE: 400,
    ErrorCode.TOO_LARGE: 413,
    ErrorCode.INVALID_RULES: 422,
    ErrorCode.INVALID_OPTIONS: 422,
    ErrorCode.INVALID_NAME: 422,
    ErrorCode.INVALID_SUBSCRIPTION: 422,
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
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.BOTS_NOT_ALLOWED: 409,
    ErrorCode.BOTS_ONLY: 409,
    ErrorCode.BOT_TOKEN_REQUIRED: 401,
    ErrorCode.BOT_LIMIT: 429,
    ErrorCode.BOT_OFFLINE: 409,
}


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
