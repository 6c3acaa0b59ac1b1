"""``/embed/{room_id}``: a game's viewer made to be framed by other sites.

The viewer is the client's one page (server/web/files.py) with the game's record inside it
(a ``<script type="application/json" id="embed-game">`` block: rules, players, moves,
result, the stable ``game_id``), which the client draws as a board with step controls and
the analysis switch (static/js/pages/embed.js); it opens no WebSocket and asks for no
identity. ``?game=N`` shows one of the room's earlier games, as ``record.txt`` does. Unlike
every other page, any site may frame it: its policy says ``frame-ancestors *`` and no
``X-Frame-Options`` goes with it (server/guards/headers.py).

Sites find the viewer through oEmbed (server/api/oembed.py), which the room page names in
a ``Link`` header (server/web/room_page.py).
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from rooms import ErrorCode, RoomError
from rooms.protocol import dumps
from rooms.room import game_id, record_of
from rooms.room.delayed import public_record

from ..state import app_state
from .files import REVALIDATE, ClientFiles
from .page import json_block

if TYPE_CHECKING:
    from rooms.room.state import RoomState

__all__ = ["EMBED_ELEMENT", "embed_routes"]

EMBED_ELEMENT = "embed-game"


def _game_block(room: RoomState, wanted: str | None, now: float) -> dict[str, Any]:
    if wanted is None or wanted == str(room.game_number):
        record = public_record(room, now)  # a game watched with a delay: as its spectators see it
    else:
        record = record_of(room, wanted)
    rules = room.rules
    return {
        "room_id": room.room_id,
        "game_number": record["game_number"],
        "games": [g["game_number"] for g in room.games] + [room.game_number],
        "rules": rules.to_dict(),
        "players": [{"mark": p["mark"], "name": p["name"]} for p in record["players"]],
        "moves": [
            {"mark": m["mark"], "row": m["row"], "col": m["col"], "layer": m.get("layer", 0)}
            for m in record["moves"]
        ],
        "outcome": record["outcome"],
        "game_id": game_id(rules, record),
        "time_control": record.get("time_control"),
        "started_at": record.get("started_at"),
    }


def embed_routes(client: ClientFiles) -> list[Route]:
    """The viewer's page, answered from ``client`` (the mount that serves everything else)."""

    async def embed_page(request: Request) -> Response:
        if not (client.root / "index.html").is_file():
            raise HTTPException(status_code=404)
        state = app_state(request.app)
        status = 200
        try:
            room = await state.service.load(request.path_params["room_id"])
            block = _game_block(room, request.query_params.get("game"), state.service.now())
            text = dumps(block).encode()
        except RoomError as exc:
            # the page says so in the frame; a store that is down is worth a retry, a
            # missing room or game is not
            status = 503 if exc.code is ErrorCode.UNAVAILABLE else 404
            text = json.dumps({"error": exc.code.value}).encode()
        response = client.page_response(
            request.scope, json_block(EMBED_ELEMENT, text), status, framed=True
        )
        response.headers["cache-control"] = REVALIDATE
        return response

    methods = ["GET", "HEAD"]
    return [
        Route("/embed/{room_id}", embed_page, methods=methods),
    ]
