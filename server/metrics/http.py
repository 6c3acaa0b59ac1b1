"""HTTP request series: ``tictactoe_http_requests_total`` and
``tictactoe_http_request_duration_seconds``, by method, route template and status.

A pure ASGI middleware around the app's routes. The route is the template Starlette matched
(``/api/rooms/{room_id}``, read from ``scope["route"]`` once the router has run), never the
raw path, so the series stay few whatever clients ask for: the client's files are one route
(``/{path}``) and a path nothing matched is ``unmatched``. WebSocket scopes pass straight
through (tictactoe_connections counts them). An exception that escapes the app is counted
as a 500, as Starlette's error middleware then answers.
"""

from __future__ import annotations

import time
from typing import Any

from starlette.routing import Mount
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .families import HTTP_REQUESTS, HTTP_SECONDS

__all__ = ["HttpMetrics", "route_template"]

_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})
_CHILDREN: dict[tuple[str, str, int], tuple[Any, Any]] = {}


def route_template(scope: Scope) -> str:
    """The template of the route that answered ``scope`` (after the router ran)."""
    route = scope.get("route")
    if route is None:
        return "unmatched"
    path = str(getattr(route, "path", "") or "")
    if isinstance(route, Mount):
        return f"{path}/{{path}}"
    return path or "unmatched"


class HttpMetrics:
    """ASGI middleware: one count and one duration for each HTTP request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        status = 500

        async def send_noting_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        try:
            await self.app(scope, receive, send_noting_status)
        finally:
            method = scope["method"] if scope["method"] in _METHODS else "other"
            key = (method, route_template(scope), status)
            children = _CHILDREN.get(key)
            if children is None:
                labels = (key[0], key[1], str(status))
                children = _CHILDREN[key] = (
                    HTTP_REQUESTS.labels(*labels),
                    HTTP_SECONDS.labels(*labels),
                )
            children[0].inc()
            children[1].observe(time.perf_counter() - started)
