"""``POST /api/analysis``: the perfect-play value of every legal move of a position.

The browser's analysis toggle (spectators, and players once their game ended) sends the
rules and the position it shows; the answer gives each playable cell its value for the
side to move: ``win``/``loss`` with the plies to the end (null when proven but not measured
in time), ``draw``, or ``unknown`` with a heuristic ``score`` when the search could not
prove it within its budget; ``proven`` says which, per cell.

The search is ``core.ai.analysis.analyze``: pure, CPU-bound Python. It runs in a worker
thread (never on the event loop) with a small time budget, at most ``concurrency`` at a
time per process (a request finding every slot taken is answered ``429 busy`` at once,
never queued), and answers are kept in a small cache shared by every spectator of a game.
Boards the search cannot say anything useful about (more than ``MAX_CELLS`` cells, three
or four players) are refused with ``422 analysis_unavailable``.
"""

from __future__ import annotations

import asyncio
import json
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from core import Game, GameError, Rules, RulesError
from core.ai import Budget
from core.ai.analysis import Analysis, analyze
from rooms import RoomError

from ..guards.write_guard import check_write
from ..state import app_state
from .responses import error_response

__all__ = [
    "BUDGET_SECONDS",
    "CONCURRENCY",
    "MAX_CELLS",
    "AnalysisService",
    "analysis_routes",
]

MAX_CELLS = 64  # up to 8×8, Connect Four (42) and the 4×4×4 cube (64); not Gomoku
BUDGET_SECONDS = 0.5
CONCURRENCY = 2
CACHE_SIZE = 512
_FIELDS = ("rules", "board")


class AnalysisRefused(Exception):
    """A request this endpoint answers with an error body (``code``, ``message``)."""

    def __init__(self, status: int, code: str, message: str, *, field: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.field = field

    def response(self) -> JSONResponse:
        body: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.field is not None:
            body["field"] = self.field
        headers = {"Retry-After": "1"} if self.status == 429 else None
        return JSONResponse(body, status_code=self.status, headers=headers)


def parse_request(data: object) -> tuple[Rules, str]:
    """(rules, board text) from a request body (untrusted: AnalysisRefused)."""
    if not isinstance(data, dict):
        raise AnalysisRefused(400, "bad_message", "the body must be a JSON object")
    unknown = sorted(set(data) - set(_FIELDS))
    if unknown:
        message = f"unknown field {unknown[0]!r:.40} (known: {', '.join(_FIELDS)})"
        raise AnalysisRefused(400, "bad_message", message)
    board = data.get("board")
    if not isinstance(board, str) or not board:
        message = f"board must be the position in text form ('X../.O./...'), got {board!r:.60}"
        raise AnalysisRefused(400, "bad_message", message)
    try:
        rules = Rules.from_dict(data.get("rules", {}))
    except RulesError as exc:
        raise AnalysisRefused(422, "invalid_rules", str(exc), field=exc.field) from None
    if rules.players != 2:
        message = f"analysis covers two-player games, not {rules.players} players"
        raise AnalysisRefused(422, "analysis_unavailable", message)
    if rules.cells > MAX_CELLS:
        message = (
            f"a {rules.describe()} board has {rules.cells} cells; analysis covers "
            f"boards of at most {MAX_CELLS}"
        )
        raise AnalysisRefused(422, "analysis_unavailable", message)
    return rules, board


def analyse_position(rules: Rules, board: str, seconds: float) -> dict[str, Any]:
    """The answer body for one position (runs in a worker thread: pure and blocking)."""
    try:
        game = Game.from_position(rules, board)
    except GameError as exc:
        raise AnalysisRefused(422, "invalid_position", f"board {board!r:.80}: {exc}") from None
    result: Analysis = analyze(game, Budget(seconds=seconds))
    return {
        "board": game.board.text,
        "turn": None if game.is_over else game.turn,
        "over": game.is_over,
        "proven": result.proven,
        "cells": [
            {
                **move.move.to_dict(),
                "value": move.value.value,
                "moves_to_end": move.moves_to_end,
                "score": move.score,
                "proven": move.proven,
            }
            for move in result.moves
        ],
        "nodes": result.nodes,
        "seconds": round(result.seconds, 4),
    }


@dataclass
class AnalysisService:
    """The per-process limits of the endpoint: budget, concurrency and the answer cache."""

    seconds: float = BUDGET_SECONDS
    concurrency: int = CONCURRENCY
    cache_size: int = CACHE_SIZE
    work: Callable[[Rules, str, float], dict[str, Any]] = analyse_position
    running: int = 0
    _cache: OrderedDict[tuple[str, str], dict[str, Any]] = field(default_factory=OrderedDict)

    async def analyse(self, rules: Rules, board: str) -> dict[str, Any]:
        key = (json.dumps(rules.to_dict(), sort_keys=True), board)
        cached = self._cache.get(key)
        if cached is not None:
            self._cache.move_to_end(key)
            return cached
        if self.running >= self.concurrency:
            message = (
                f"{self.running} analyses are running, the most this server does at "
                "once; try again in a moment"
            )
            raise AnalysisRefused(429, "busy", message)
        self.running += 1  # checked and taken with no await in between: no race
        try:
            body = await asyncio.to_thread(self.work, rules, board, self.seconds)
        finally:
            self.running -= 1
        self._cache[key] = body
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return body


async def _read_json(request: Request, limit: int) -> object:
    declared = request.headers.get("content-length")
    too_large = AnalysisRefused(413, "too_large", f"a request body may be at most {limit} bytes")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise too_large
    raw = b""
    async for chunk in request.stream():
        raw += chunk
        if len(raw) > limit:
            raise too_large
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):
        raise AnalysisRefused(400, "bad_message", "the body must be a JSON object") from None


def analysis_routes(service: AnalysisService | None = None) -> list[Route]:
    """The endpoint's route, sharing ``service`` (one per app) between its requests."""
    shared = service if service is not None else AnalysisService()

    async def analysis(request: Request) -> Response:
        settings = app_state(request.app).settings
        limit = settings.max_body_bytes
        try:
            check_write(request, settings.allowed_origins)
        except RoomError as exc:
            return error_response(exc)
        try:
            rules, board = parse_request(await _read_json(request, limit))
            body = await shared.analyse(rules, board)
        except AnalysisRefused as exc:
            return exc.response()
        return JSONResponse(body)

    return [Route("/api/analysis", analysis, methods=["POST"])]
