"""``/r/{room_id}`` and ``/r/{room_id}/watch``: the client's page carrying the room it shows.

The page a player or spectator opens is the client's one page (server/web/files.py), with the
room's snapshot (the ``state`` of a ``welcome``, as ``GET /api/rooms/{room_id}`` answers it)
in a ``<script type="application/json" id="room-snapshot">`` block. The page draws the room
from it at once and asks the invitee for a name with the room's details, instead of waiting
for an API call or the WebSocket's ``welcome``: behind a long link that is one round trip
for the page instead of three or four before the board shows. The session's ``welcome``
then replaces it as usual. A ``Link`` header names the room's oEmbed answer.

A room that does not exist (or cannot be read now) gives the page with ``null`` in the
block: the page then starts its session at once, which says what is wrong. (A page with no
block at all was served by some other file server, and asks the API.) The page goes with
``Cache-Control: no-cache`` and an ETag of its content, like every page.
"""

from __future__ import annotations

from urllib.parse import urlencode

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from rooms import RoomError
from rooms.protocol import dumps
from rooms.room.delayed import public_snapshot

from ..state import app_state
from .files import REVALIDATE, ClientFiles
from .page import json_block

__all__ = ["SNAPSHOT_ELEMENT", "room_page_routes"]

SNAPSHOT_ELEMENT = "room-snapshot"


def _oembed_link(request: Request) -> str:
    """Names the room's oEmbed answer (server/api/oembed.py), as a ``<link>`` in the page's
    head would: a site given the room's link finds the embeddable viewer from it."""
    page = str(request.url.replace(query=""))
    target = str(request.url.replace(path="/api/oembed", query=urlencode({"url": page})))
    return f'<{target}>; rel="alternate"; type="application/json+oembed"'


def room_page_routes(client: ClientFiles) -> list[Route]:
    """The two page routes, answered from ``client`` (the mount that serves everything else)."""

    async def room_page(request: Request) -> Response:
        if not (client.root / "index.html").is_file():
            raise HTTPException(status_code=404)  # no client installed: the mount says so at /
        state = app_state(request.app)
        try:
            room = await state.service.load(request.path_params["room_id"])
            snapshot = public_snapshot(room, state.service.now())  # delayed for spectators
        except RoomError:
            text = b"null"  # missing, or the store unreachable: the session will say which
        else:
            text = dumps(snapshot).encode()
        block = json_block(SNAPSHOT_ELEMENT, text)
        response = client.page_response(request.scope, block)
        response.headers["cache-control"] = REVALIDATE
        response.headers["link"] = _oembed_link(request)
        return response

    methods = ["GET", "HEAD"]
    return [
        Route("/r/{room_id}", room_page, methods=methods),
        Route("/r/{room_id}/watch", room_page, methods=methods),
    ]
