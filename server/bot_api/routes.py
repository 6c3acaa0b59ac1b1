"""Bot accounts over HTTP (docs/protocol.md, "Bots").

``POST /api/bots`` makes one (its owner's secret and its first token, shown once);
``POST`` and ``DELETE /api/bots/{bot_id}/token`` rotate and revoke its token, with the
owner's secret or the current token as ``Authorization: Bearer``; ``GET /api/bots`` lists
the bots online; ``POST /api/bots/{bot_id}/challenge`` challenges one (a person with their
identity or as a guest, a bot with its token as ``Authorization: Bearer``). Writes pass the
write guard; token checks are rate-limited per bot (server.bot_api.gate). Every answer is
``no-store`` (server.guards.headers, for ``/api/``): secrets and tokens are in some.
"""

from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from rooms import ErrorCode, RoomError
from rooms.bots import authorize_owner, create_bot, issue_token, revoke_token
from rooms.bots.challenges import CHALLENGE_TTL, Challenger, offer, seat_message, tell_seat
from rooms.bots.challenges import check_available as available
from rooms.common.names import clean_name
from rooms.players import Player, verified
from rooms.room import JoinReply, guest_name

from ..api.bearer import bearer_refused, presented_bearer
from ..api.responses import error_response, read_body
from ..api.room_options import json_object, parse_challenge
from ..guards.write_guard import check_write
from ..state import AppState, app_state
from . import metrics
from .gate import BotGate

__all__ = ["bot_routes"]

_MOST_LISTED = 100


def _gate(state: AppState) -> BotGate:
    assert state.bot_gate is not None
    return state.bot_gate


async def create_bot_account(request: Request) -> Response:
    state = app_state(request.app)
    try:
        check_write(request, state.settings.allowed_origins)
        state.lag.check("player")
        data = json_object(await read_body(request, state.settings.max_body_bytes), ("name",))
        try:
            name = clean_name(data.get("name"))
        except ValueError as exc:
            raise RoomError(ErrorCode.INVALID_NAME, f"name: {exc}", field="name") from None
        bot, secret, token = await create_bot(state.backend.players, name)
    except RoomError as exc:
        return error_response(exc)
    return JSONResponse({**bot.public(), "secret": secret, "token": token}, status_code=201)


async def _owner(request: Request, state: AppState) -> Player:
    """The bot of the path, when the bearer is its owner's secret or its current token."""
    bot_id = request.path_params["bot_id"]
    presented = presented_bearer(request)
    if presented is None:
        raise RoomError(
            ErrorCode.BAD_IDENTITY, "send the bot's secret or token as Authorization: Bearer"
        )
    _gate(state).throttle(bot_id)
    return await authorize_owner(state.backend.players, bot_id, presented)


async def rotate_token(request: Request) -> Response:
    state = app_state(request.app)
    try:
        check_write(request, state.settings.allowed_origins)
        bot = await _owner(request, state)
        token = await issue_token(state.backend.players, bot.player_id)
    except RoomError as exc:
        return bearer_refused(exc, "bots")
    return JSONResponse({"player_id": bot.player_id, "token": token})


async def revoke(request: Request) -> Response:
    state = app_state(request.app)
    try:
        check_write(request, state.settings.allowed_origins)
        bot = await _owner(request, state)
        await revoke_token(state.backend.players, bot.player_id)
    except RoomError as exc:
        return bearer_refused(exc, "bots")
    return Response(status_code=204)


async def online_bots(request: Request) -> Response:
    state = app_state(request.app)
    try:
        ids = await state.backend.bot_desk.online(state.service.now(), _MOST_LISTED)
        found = await asyncio.gather(*(state.backend.players.get(bot_id) for bot_id in ids))
    except RoomError as exc:
        return error_response(exc)
    bots = [bot.public() for bot in found if bot is not None and bot.bot]
    return JSONResponse({"bots": bots})


async def _challenger(request: Request, state: AppState, name: str | None, body: Any) -> Challenger:
    """Who challenges: a bot by its token (bearer), a person by their identity, or a guest."""
    token = presented_bearer(request)
    if token is not None:
        bot = await _gate(state).authenticate(token)
        return Challenger(bot.name, bot.player_id, bot=True)
    if body.player is not None:
        player = await verified(state.backend.players, body.player)
        if player.bot:
            raise RoomError(
                ErrorCode.BOT_TOKEN_REQUIRED, "a bot challenges with its token as the bearer"
            )
        return Challenger(name or player.name, player.player_id)
    return Challenger(name or guest_name())


async def challenge_bot(request: Request) -> Response:
    """Challenge the bot of the path: a room made now, the challenger's seat in it."""
    state = app_state(request.app)
    bot_id = request.path_params["bot_id"]
    desk = state.backend.bot_desk
    try:
        check_write(request, state.settings.allowed_origins)
        state.lag.check("room")
        body = parse_challenge(
            await read_body(request, state.settings.max_body_bytes), state.settings
        )
        bot = await state.backend.players.get(bot_id)
        if bot is None or not bot.bot:
            raise RoomError(ErrorCode.PLAYER_NOT_FOUND, f"no bot {bot_id!r:.40}")
        await check_available(state, bot)
        challenger = await _challenger(request, state, body.name, body)
        settings = state.settings.room_settings(body.time_control, pool=body.pool, bots=True)
        challenge, seated = await offer(
            state.service, desk, bot, challenger, rules=body.rules, settings=settings
        )
    except RoomError as exc:
        return bearer_refused(exc, "bots")
    assert isinstance(seated.reply, JoinReply)
    if challenger.bot and challenger.player_id is not None:
        seat = seat_message(
            challenge.room_id,
            seated.reply.mark,
            Challenger(bot.name, bot.player_id, bot=True),
            rules=challenge.rules,
            time_control=challenge.time_control,
            rated=challenge.rated,
            challenge_id=challenge.challenge_id,
        )
        try:  # the challenging bot hears of its seat on its socket too, and counts it
            await tell_seat(desk, challenger.player_id, seat)
        except RoomError as exc:
            return error_response(exc)
    return JSONResponse(
        {
            "challenge_id": challenge.challenge_id,
            "room_id": challenge.room_id,
            "mark": seated.reply.mark,
            "token": seated.reply.token,
            "expires_at": challenge.created + CHALLENGE_TTL,
            "rated": challenge.rated,
        },
        status_code=201,
    )


async def check_available(state: AppState, bot: Player) -> None:
    """rooms.bots.challenges ``check_available``, the refusal counted by its limit."""
    try:
        await available(state.service, state.backend.bot_desk, bot, _gate(state).limits)
    except RoomError as exc:
        if exc.code is ErrorCode.BOT_LIMIT and exc.field is not None:
            metrics.refused(exc.field)
        raise


def bot_routes() -> list[Route]:
    """The routes, to go before the API's ``/api`` catch-all."""
    return [
        Route("/api/bots", create_bot_account, methods=["POST"]),
        Route("/api/bots", online_bots, methods=["GET"]),
        Route("/api/bots/{bot_id}/token", rotate_token, methods=["POST"]),
        Route("/api/bots/{bot_id}/token", revoke, methods=["DELETE"]),
        Route("/api/bots/{bot_id}/challenge", challenge_bot, methods=["POST"]),
    ]
