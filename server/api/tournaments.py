"""Tournaments over HTTP: create, list, read, join, withdraw, start, add a bot, the CSV table.

Every change names its player with the body's ``player`` (``{"id", "secret"}``, as a room's
join and quick play do), verified by the player directory before the tournament's own
compare-and-set change (rooms.tournaments.service). Changes pass the write guard (Origin,
JSON); creating one is new work, refused while the worker is overloaded (admission). Reads are
public: a tournament's page, like its games, is for anyone with the link.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from core import GameError, Rules
from core.ai import LEVELS
from core.knockout import DRAW_RULES, REPLAY, check_draw_rule
from core.round_robin import TournamentError
from core.swiss import check_rounds
from rooms import ErrorCode, RoomError
from rooms.common.names import clean_name
from rooms.errors import from_game_error
from rooms.players import Player, verified
from rooms.room.config import TimeControl, watch_delay_of
from rooms.tournaments import ARENA, KINDS, KNOCKOUT, ROUND_ROBIN, SWISS, Status, TournamentRecord
from rooms.tournaments.kinds import start
from rooms.tournaments.seeding import seeding_ratings
from rooms.tournaments.views import results_csv, summary, view

from ..guards.write_guard import check_write
from ..state import AppState, app_state
from .responses import error_response, read_body
from .room_options import json_object, player_credentials
from .tournament_games import game_records

__all__ = ["tournament_routes"]

_CREATE_FIELDS = (
    "name",
    "kind",
    "duration",
    "double",
    "rounds",
    "draw_rule",
    "rules",
    "time_control",
    "max_players",
    "public",
    "starts_at",
    "player",
    "watch_delay",
)
DEFAULT_TIME_CONTROL = {"initial": 180.0, "increment": 2.0}
"""A tournament game is timed: the first-move limit is what forfeits a missing player."""
MAX_PLAYERS = 32
ARENA_SECONDS = (10.0, 3 * 3600.0)
"""An arena's shortest and longest duration."""
LIST_LIMIT = 100


async def _body(
    request: Request, state: AppState, fields: tuple[str, ...]
) -> tuple[dict[str, Any], Player]:
    """The checked write's JSON body and the identity its ``player`` proves."""
    check_write(request, state.settings.allowed_origins)
    data = json_object(await read_body(request, state.settings.max_body_bytes), fields)
    credentials = player_credentials(data.get("player"))
    if credentials is None:
        raise RoomError(ErrorCode.IDENTITY_REQUIRED, "send your player identity as player")
    return data, await verified(state.backend.players, credentials)


def _options(data: dict[str, Any], state: AppState, creator: Player) -> Callable[..., Any]:
    """The new tournament's builder from the body (typed errors naming the field)."""
    try:
        rules = Rules.from_dict(data.get("rules") or {})
    except GameError as exc:
        raise from_game_error(exc) from exc
    if rules.players != 2:
        raise RoomError(
            ErrorCode.INVALID_RULES, "rules: a tournament game has two players", field="rules"
        )
    tc = TimeControl.from_dict(
        data.get("time_control") or DEFAULT_TIME_CONTROL, first_move=state.settings.first_move
    )
    if tc.correspondence:  # rounds are played live: a round of days per move is not one
        raise RoomError(
            ErrorCode.INVALID_OPTIONS,
            "time_control.days: a tournament plays live clocks, not days per move",
            field="time_control.days",
        )
    try:
        name = clean_name(data.get("name") or f"{creator.name}'s tournament")
    except ValueError as exc:
        raise RoomError(ErrorCode.INVALID_NAME, str(exc), field="name") from None
    max_players = data.get("max_players", 8)
    if isinstance(max_players, bool) or not isinstance(max_players, int):
        max_players = -1
    if not 2 <= max_players <= MAX_PLAYERS:
        raise RoomError(
            ErrorCode.INVALID_OPTIONS,
            f"max_players: a whole number from 2 to {MAX_PLAYERS}",
            field="max_players",
        )
    public = data.get("public", True)
    if not isinstance(public, bool):
        raise RoomError(ErrorCode.BAD_MESSAGE, "public must be true or false")
    starts_at = data.get("starts_at")
    if starts_at is not None and (
        isinstance(starts_at, bool)
        or not isinstance(starts_at, int | float)
        or not math.isfinite(starts_at)
    ):
        raise RoomError(
            ErrorCode.INVALID_OPTIONS,
            "starts_at: seconds since the epoch, or null for a start by the creator",
            field="starts_at",
        )

    kind, duration = _kind_and_duration(data)
    double = data.get("double", False)
    if not isinstance(double, bool) or (double and kind != ROUND_ROBIN):
        raise RoomError(
            ErrorCode.INVALID_OPTIONS,
            "double: true for a round robin played twice (colours swapped), else false",
            field="double",
        )
    rounds, draw_rule = _rounds_and_draw_rule(data, kind, max_players)

    delay = data.get("watch_delay")
    watch_delay = watch_delay_of(0 if delay is None else delay)

    def make(tournament_id: str, now: float) -> TournamentRecord:
        record = TournamentRecord(
            id=tournament_id,
            name=name,
            creator=creator.player_id,
            rules=rules.to_dict(),
            time_control=tc.to_dict(),
            max_players=max_players,
            public=public,
            created=now,
            starts_at=float(starts_at) if starts_at is not None else None,
            kind=kind,
            duration=duration,
            double=double,
            rounds=rounds,
            draw_rule=draw_rule,
            watch_delay=watch_delay,
        )
        record.join(creator.player_id, creator.name)
        return record

    return make


def _kind_and_duration(data: dict[str, Any]) -> tuple[str, float]:
    """``kind`` (a round robin unless said) and an arena's ``duration`` in seconds."""
    kind = data.get("kind", ROUND_ROBIN)
    if kind not in KINDS:
        raise RoomError(
            ErrorCode.INVALID_OPTIONS,
            f"kind: one of {', '.join(map(repr, KINDS))}, not {kind!r:.40}",
            field="kind",
        )
    duration = data.get("duration")
    if kind != ARENA:
        if duration is not None:
            raise RoomError(
                ErrorCode.INVALID_OPTIONS,
                "duration: only an arena has one (the other kinds last their rounds)",
                field="duration",
            )
        return kind, 0.0
    shortest, longest = ARENA_SECONDS
    if (
        isinstance(duration, bool)
        or not isinstance(duration, int | float)
        or not shortest <= duration <= longest
    ):
        raise RoomError(
            ErrorCode.INVALID_OPTIONS,
            f"duration: an arena's length in seconds, from {shortest:g} to {longest:g}",
            field="duration",
        )
    return kind, float(duration)


def _rounds_and_draw_rule(
    data: dict[str, Any], kind: str, max_players: int
) -> tuple[int, str | None]:
    """A Swiss's ``rounds`` (required: 1 to ``max_players - 1``) and a knockout's
    ``draw_rule`` (``replay`` unless said); each refused for the other kinds."""
    rounds, draw_rule = data.get("rounds"), data.get("draw_rule")
    if kind != SWISS and rounds is not None:
        raise RoomError(
            ErrorCode.INVALID_OPTIONS,
            "rounds: only a Swiss has a number of rounds set at creation",
            field="rounds",
        )
    if kind != KNOCKOUT and draw_rule is not None:
        raise RoomError(
            ErrorCode.INVALID_OPTIONS,
            "draw_rule: only a knockout settles its drawn games by a rule",
            field="draw_rule",
        )
    try:
        if kind == SWISS:
            return check_rounds(rounds, max_players), None
        if kind == KNOCKOUT:
            return 0, check_draw_rule(REPLAY if draw_rule is None else draw_rule)
    except TournamentError as exc:
        field = "rounds" if kind == SWISS else "draw_rule"
        hint = " (at most max_players - 1)" if kind == SWISS else f" ({', '.join(DRAW_RULES)})"
        raise RoomError(ErrorCode.INVALID_OPTIONS, f"{field}: {exc}{hint}", field=field) from None
    return 0, None


async def create_tournament(request: Request) -> Response:
    state = app_state(request.app)
    try:
        state.lag.check("tournament")
        data, creator = await _body(request, state, _CREATE_FIELDS)
        record = await state.tournaments.create(_options(data, state, creator))
    except RoomError as exc:
        return error_response(exc)
    return JSONResponse(view(record, viewer=creator.player_id), status_code=201)


async def list_tournaments(request: Request) -> Response:
    state = app_state(request.app)
    try:
        shelf = state.tournaments.shelf
        listed = []
        for tournament_id in (await shelf.active())[:LIST_LIMIT]:
            record = await shelf.load(tournament_id)
            if record is not None and record.public and record.status is not Status.FINISHED:
                listed.append(summary(record))
    except RoomError as exc:
        return error_response(exc)
    return JSONResponse({"tournaments": listed})


async def get_tournament(request: Request) -> Response:
    state = app_state(request.app)
    try:
        record = await state.tournaments.get(request.path_params["tournament_id"])
    except RoomError as exc:
        return error_response(exc)
    return JSONResponse(view(record, viewer=request.query_params.get("player")))


async def results(request: Request) -> Response:
    state = app_state(request.app)
    try:
        record = await state.tournaments.get(request.path_params["tournament_id"])
    except RoomError as exc:
        return error_response(exc)
    disposition = f'attachment; filename="tournament-{record.id}.csv"'
    return Response(
        results_csv(record),
        media_type="text/csv; charset=utf-8",
        headers={"Content-Disposition": disposition},
    )


def _action(
    fields: tuple[str, ...],
    edit: Callable[[TournamentRecord, Player, dict[str, Any], float], bool],
) -> Callable[[Request], Any]:
    """An endpoint that changes a tournament for a verified player, answering its view."""

    async def endpoint(request: Request) -> Response:
        state = app_state(request.app)
        try:
            data, player = await _body(request, state, ("player", *fields))
            tournament_id = request.path_params["tournament_id"]
            clock = state.tournaments.clock
            record, _ = await state.tournaments.change(
                tournament_id, lambda r: edit(r, player, data, clock())
            )
        except RoomError as exc:
            return error_response(exc)
        if record.status is Status.RUNNING:
            state.director.poke(record.id)  # its rooms now, not at the next scan
        return JSONResponse(view(record, viewer=player.player_id))

    return endpoint


def _join(record: TournamentRecord, player: Player, data: dict[str, Any], now: float) -> bool:
    return record.join(player.player_id, player.name, now=now, bot_account=player.bot)


def _withdraw(record: TournamentRecord, player: Player, data: dict[str, Any], now: float) -> bool:
    return record.withdraw(player.player_id)


async def start_tournament(request: Request) -> Response:
    """The creator's start: a knockout is seeded by the ratings read here, before the
    change (which does no I/O)."""
    state = app_state(request.app)
    try:
        _, player = await _body(request, state, ("player",))
        tournament_id = request.path_params["tournament_id"]
        before = await state.tournaments.get(tournament_id)
        ratings = await seeding_ratings(before, state.backend.ratings)
        clock = state.tournaments.clock

        def edit(record: TournamentRecord) -> bool:
            record.require_creator(player.player_id, "start it")
            start(record, clock(), ratings)
            return True

        record, _ = await state.tournaments.change(tournament_id, edit)
    except RoomError as exc:
        return error_response(exc)
    state.director.poke(record.id)  # its rooms now, not at the next scan
    return JSONResponse(view(record, viewer=player.player_id))


def _bot(record: TournamentRecord, player: Player, data: dict[str, Any], now: float) -> bool:
    record.require_creator(player.player_id, "add a bot")
    level = data.get("level")
    if level not in LEVELS:
        raise RoomError(
            ErrorCode.INVALID_OPTIONS,
            f"level: {level!r:.40} is not a bot level (known: {', '.join(LEVELS)})",
            field="level",
        )
    # the second bot of a level is "Bot (medium) 2", so a bracket or a table tells them apart
    same = 1 + sum(1 for e in record.entrants if e.bot == level)
    record.add_bot(level, f"Bot ({level})" + (f" {same}" if same > 1 else ""), now=now)
    return True


def tournament_routes() -> list[Route]:
    """The routes, to go before the API's ``/api`` catch-all (server.api, it answers 404)."""
    base = "/api/tournaments/{tournament_id}"
    return [
        Route("/api/tournaments", create_tournament, methods=["POST"]),
        Route("/api/tournaments", list_tournaments, methods=["GET"]),
        Route(base, get_tournament, methods=["GET"]),
        Route(f"{base}/results.csv", results, methods=["GET"]),
        Route(f"{base}/games.txt", game_records, methods=["GET"]),
        Route(f"{base}/join", _action((), _join), methods=["POST"]),
        Route(f"{base}/withdraw", _action((), _withdraw), methods=["POST"]),
        Route(f"{base}/start", start_tournament, methods=["POST"]),
        Route(f"{base}/bots", _action(("level",), _bot), methods=["POST"]),
    ]
