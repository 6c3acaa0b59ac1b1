"""``Authorization: Bearer`` on the HTTP API: the secret or token a request presents, and the
error answer that, for a ``401 bad_identity``, names the scheme it wants (RFC 6750).

Guest identities (server.api.players) and bot accounts (server.bot_api.routes) both take
their secrets this way, each under its own realm."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import Response

from rooms import ErrorCode, RoomError

from .responses import error_response

__all__ = ["bearer_refused", "presented_bearer"]


def presented_bearer(request: Request) -> str | None:
    """The value of ``Authorization: Bearer <value>``, stripped; None without one."""
    scheme, _, value = request.headers.get("authorization", "").partition(" ")
    value = value.strip()
    return value if scheme.lower() == "bearer" and value else None


def bearer_refused(exc: RoomError, realm: str) -> Response:
    """The error answer for ``exc``; a ``bad_identity`` one asks for a bearer of ``realm``."""
    response = error_response(exc)
    if exc.code is ErrorCode.BAD_IDENTITY:  # RFC 6750: a 401 names the scheme it wants
        response.headers["WWW-Authenticate"] = f'Bearer realm="{realm}"'
    return response
