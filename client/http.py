"""The HTTP API, blocking (``urllib``: no dependency): JSON in, JSON out, typed errors.

A refusal raises ``Refused`` with the server's code (docs/protocol.md, "Error codes"); a
server that cannot be reached raises ``Disconnected``. (The bench's many-rooms-a-second
creation keeps its own keep-alive pool, bench.load.http.)
"""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from typing import Any

from core import Rules

from .errors import Disconnected, Refused
from .links import RoomLink

__all__ = ["create_room", "get_json", "post_json", "request_json"]

TIMEOUT = 10.0


def request_json(
    http_base: str,
    method: str,
    path: str,
    body: dict[str, Any] | None = None,
    *,
    bearer: str | None = None,
) -> dict[str, Any]:
    """``method`` ``http_base + path`` with ``body`` as JSON (and ``Authorization: Bearer``
    when ``bearer`` is given); the JSON answer (``{}`` for an empty one, a 204)."""
    headers = {"Content-Type": "application/json"}
    if bearer is not None:
        headers["Authorization"] = f"Bearer {bearer}"
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(f"{http_base}{path}", data, headers, method=method)
    return _fetch_json(request, http_base)


def post_json(http_base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST ``body`` as JSON to ``http_base + path``; the JSON answer."""
    return request_json(http_base, "POST", path, body)


def get_json(http_base: str, path: str) -> dict[str, Any]:
    """GET ``http_base + path``; the JSON answer."""
    return _fetch_json(urllib.request.Request(f"{http_base}{path}"), http_base)


def _fetch_json(request: urllib.request.Request, http_base: str) -> dict[str, Any]:
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as response:
            raw = response.read()
    except urllib.error.HTTPError as exc:
        try:
            error = json.loads(exc.read())
        except ValueError:
            error = {"code": "unavailable", "message": f"HTTP {exc.code}"}
        code, message = error.get("code", "unavailable"), error.get("message", str(exc))
        raise Refused(code, message, error) from None
    except (urllib.error.URLError, OSError) as exc:
        raise Disconnected(f"cannot connect to {http_base}: {exc}") from None
    answer: dict[str, Any] = json.loads(raw) if raw else {}
    return answer


def create_room(
    link: RoomLink, rules: Rules | None = None, *, public: bool = False, **options: Any
) -> RoomLink:
    """``POST /api/rooms`` on ``link``'s server; the link of the new room. ``options`` are
    more fields of the body (``rated``, ``time_control``, ``bot``...: docs/protocol.md)."""
    body = {"rules": (rules or Rules()).to_dict(), "public": public, **options}
    created = post_json(link.http_base, "/api/rooms", body)
    return RoomLink(link.http_base, str(created["room_id"]))
