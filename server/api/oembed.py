"""``GET /api/oembed``: oEmbed 1.0 (https://oembed.com) for a room's address on this server.

``url`` is a room's page (``/r/{id}``, ``/r/{id}/watch``) or its viewer (``/embed/{id}``)
on this server's own host; the answer is ``rich``, its ``html`` the viewer's ``<iframe>``
(server/web/embed_page.py), sized to fit ``maxwidth`` and ``maxheight``. ``format`` other
than ``json`` is ``501``, as the specification asks; a URL that is not a room here, or a room
that does not exist, is ``404``.
"""

from __future__ import annotations

import html
import re
from urllib.parse import quote, urlsplit

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from rooms import ErrorCode, RoomError

from ..state import app_state
from .responses import error_response

__all__ = ["HEIGHT", "PROVIDER", "SMALLEST", "WIDTH", "oembed_routes"]

PROVIDER = "Tic-Tac-Toe"
WIDTH, HEIGHT = 400, 560
"""The viewer's frame when the consumer sets no bound: a board, its bar and a line or two."""
SMALLEST = 240
"""Below this the board's cells are too small to read; a smaller bound is an error."""
_ROOM_PATH = re.compile(r"^/(?:r|embed)/([A-Za-z0-9_-]{1,64})(?:/watch)?/?$")


def _bound(request: Request, name: str, default: int) -> int:
    raw = request.query_params.get(name)
    if raw is None:
        return default
    if not raw.isdigit() or int(raw) < SMALLEST:
        raise RoomError(
            ErrorCode.INVALID_OPTIONS,
            f"{name} must be a whole number of pixels, at least {SMALLEST}, got {raw!r:.20}",
            field=name,
        )
    return min(default, int(raw))


async def oembed(request: Request) -> Response:
    if request.query_params.get("format", "json") != "json":
        return PlainTextResponse("only format=json is served", status_code=501)
    try:
        url = request.query_params.get("url")
        if not url:
            raise RoomError(ErrorCode.BAD_MESSAGE, "url is required", field="url")
        parts = urlsplit(url)
        match = _ROOM_PATH.match(parts.path)
        if match is None or parts.netloc != request.url.netloc:
            raise RoomError(ErrorCode.NOT_FOUND, f"not a room's address on this server: {url:.80}")
        width = _bound(request, "maxwidth", WIDTH)
        height = _bound(request, "maxheight", HEIGHT)
        room = await app_state(request.app).service.load(match.group(1))
    except RoomError as exc:
        return error_response(exc)
    src = str(request.url.replace(path=f"/embed/{quote(room.room_id)}", query=""))
    names = " vs ".join(seat.name for seat in room.seats if seat.name) or "A game"
    title = f"{names} · {room.rules.describe()}"
    frame = (
        f'<iframe src="{html.escape(src)}" width="{width}" height="{height}" '
        f'title="{html.escape(title)}" style="border:0" loading="lazy"></iframe>'
    )
    answer = {
        "version": "1.0",
        "type": "rich",
        "provider_name": PROVIDER,
        "provider_url": str(request.url.replace(path="/", query="")),
        "title": title,
        "html": frame,
        "width": width,
        "height": height,
    }
    return JSONResponse(answer)


def oembed_routes() -> list[Route]:
    return [Route("/api/oembed", oembed, methods=["GET", "HEAD"])]
