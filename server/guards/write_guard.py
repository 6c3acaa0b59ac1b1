"""What a state-changing HTTP request (a POST or PATCH) must show before its body is read.

Its ``Origin`` passes the same check as a WebSocket handshake (server/guards/origin.py): a page
of another site cannot create rooms or take seats in a visitor's name (a request without
Origin comes from a non-browser client, such as ``tictactoe play --connect`` or the
bench, and passes). Its body is ``application/json``: a browser sends that type
cross-site only after a CORS preflight, which this server never grants, so a plain HTML
form or a ``text/plain`` fetch from another site is refused even where Origin is absent.
"""

from __future__ import annotations

import logging
from collections.abc import Collection

from starlette.requests import Request

from rooms import ErrorCode, RoomError

from .origin import origin_allowed

__all__ = ["check_write"]

log = logging.getLogger("tictactoe.server")


def check_write(request: Request, allowed_origins: Collection[str]) -> None:
    """Raise RoomError (``origin_not_allowed``, then ``unsupported_media_type``) unless
    ``request`` may change state."""
    origin = request.headers.get("origin")
    if not origin_allowed(origin, request.headers.get("host"), allowed_origins):
        shown = origin[:100] if origin else origin
        log.warning(  # an edge refusal: once, at WARNING, like the WebSocket's (server.ws.socket)
            "refused a %s %s: origin %r is not allowed",
            request.method,
            request.url.path,
            shown,
            extra={"refusal": "origin", "status": 403},
        )
        raise RoomError(
            ErrorCode.ORIGIN_NOT_ALLOWED,
            f"origin {shown!r} may not {request.method} here (a cross-site request)",
        )
    media = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if media != "application/json":
        got = repr(media[:60]) if media else "no Content-Type"
        raise RoomError(
            ErrorCode.UNSUPPORTED_MEDIA_TYPE,
            f"the body must be sent as Content-Type: application/json, got {got}",
        )
