"""Rooms over HTTP: create, list and read rooms, quick play, and a game's text record."""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Route

from rooms import ErrorCode, RoomError, queue_key, quick_play
from rooms.bots.challenges import CHALLENGE_TTL, Challenger, offer, pick_bot
from rooms.players import Player, verified
from rooms.protocol import dumps
from rooms.room import JoinReply, format_record, guest_name, record_of
from rooms.room.delayed import public_record, public_snapshot

from ..crash_points import AFTER_SEAT, crash_point
from ..guards.write_guard import check_write
from ..state import AppState, app_state
from .responses import error_response, read_body
from .room_options import QuickPlayBody, parse_quickplay, parse_room

__all__ = ["room_routes"]


def _links(request: Request, room_id: str) -> dict[str, str]:
    base = str(request.base_url).rstrip("/")
    ws_base = "wss" + base[5:] if base.startswith("https") else "ws" + base[4:]
    return {
        "play": f"{base}/r/{room_id}",
        "watch": f"{base}/r/{room_id}/watch",
        "ws": f"{ws_base}/ws/{room_id}",
        "ws_watch": f"{ws_base}/ws/{room_id}/watch",  # spectators only (docs/protocol.md)
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
            settings=state.settings.room_settings(
                body.time_control, pool=body.pool, bots=body.bots
            ),
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
        "bots": room.settings.bots,
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
        if body.opponent == "bot":
            return await _play_a_bot(request, state, body, player)
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


async def _play_a_bot(
    request: Request, state: AppState, body: QuickPlayBody, player: Player | None
) -> Response:
    """Quick play against one of the online bots: a challenge to one that can take a game
    now (docs/protocol.md, ``POST /api/quickplay``); the bot accepts or declines it."""
    if player is not None and player.bot:
        raise RoomError(ErrorCode.BOT_TOKEN_REQUIRED, "a bot challenges with its token")
    assert state.bot_gate is not None
    desk, limits = state.backend.bot_desk, state.bot_gate.limits
    bot = await pick_bot(state.service, desk, state.backend.players, limits)
    challenger = Challenger(
        body.name or (player.name if player is not None else guest_name()),
        player.player_id if player is not None else None,
    )
    settings = state.settings.room_settings(body.time_control, bots=True)
    challenge, seated = await offer(
        state.service, desk, bot, challenger, rules=body.rules, settings=settings
    )
    assert isinstance(seated.reply, JoinReply)
    tc = settings.time_control
    answer = {
        "room_id": challenge.room_id,
        "mark": seated.reply.mark,
        "token": seated.reply.token,
        "matched": False,
        "rules": body.rules.to_dict(),
        "time_control": tc.to_dict() if tc is not None else None,
        "links": _links(request, challenge.room_id),
        "opponent": bot.public(),
        "challenge_id": challenge.challenge_id,
        "expires_at": challenge.created + CHALLENGE_TTL,
    }
    return JSONResponse(answer, headers={"Cache-Control": "no-store"})


async def game_record(request: Request) -> Response:
    """The current game (or ``?game=N``) as a plain text record."""
    state = app_state(request.app)
    try:
        room = await state.service.load(request.path_params["room_id"])
        wanted = request.query_params.get("game")
        if wanted is None or wanted == str(room.game_number):
            record = public_record(room, state.service.now())  # delayed for a delayed game
        else:
            record = record_of(room, wanted)
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
        room = await state.service.load(request.path_params["room_id"])
    except RoomError as exc:
        return error_response(exc)
    # a game watched with a delay shows its spectators' view here (rooms.room.delayed)
    return JSONResponse(public_snapshot(room, state.service.now()))


def room_routes() -> list[Route]:
    return [
        Route("/api/rooms", create_room, methods=["POST"]),
        Route("/api/rooms", list_rooms, methods=["GET"]),
        Route("/api/rooms/{room_id}", get_room, methods=["GET"]),
        Route("/api/rooms/{room_id}/record.txt", game_record, methods=["GET"]),
        Route("/api/quickplay", quickplay, methods=["POST"]),
    ]
