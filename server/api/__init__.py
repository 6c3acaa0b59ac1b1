"""The HTTP API: one module per resource, and the ``/api`` catch-all after them all."""

from __future__ import annotations

from starlette.routing import Route

from .analysis import analysis_routes
from .fairplay import fairplay_routes
from .games import game_routes
from .health import health_routes
from .oembed import oembed_routes
from .players import player_routes
from .push import push_routes
from .ratings import rating_routes
from .responses import api_not_found, error_response, read_body
from .rooms import room_routes
from .tournaments import tournament_routes

__all__ = ["api_routes", "error_response", "read_body"]

_ANY = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]


def api_routes() -> list[Route]:
    """Every endpoint of the API, then the catch-all that answers any other ``/api`` path
    (404, or 405 with ``Allow`` when the path exists with other methods)."""
    return [
        *analysis_routes(),
        *game_routes(),
        *player_routes(),
        *push_routes(),
        *rating_routes(),
        *tournament_routes(),
        *room_routes(),
        *health_routes(),
        *fairplay_routes(),
        *oembed_routes(),
        Route("/api/{rest:path}", api_not_found, methods=_ANY),
    ]
