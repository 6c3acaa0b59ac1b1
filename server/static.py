"""The browser client's files (``static/``) served at ``/``, with an index fallback.

Any GET for a path that is not a file and does not look like one (``/r/q7m2kx9c``) answers
``index.html``, so the client's own routes work on reload. When ``static/index.html`` does
not exist (the client is not installed) ``/`` says so in plain text and nothing fails.

Every file is served with its ``ETag`` and ``Cache-Control: no-cache``: a browser keeps the
client and asks each time whether it changed, answered by a body-less ``304`` when it did
not, so a new release is picked up at once and an unchanged one costs no bytes.
"""

from __future__ import annotations

from pathlib import Path

from starlette.exceptions import HTTPException
from starlette.responses import PlainTextResponse, Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

__all__ = ["ClientFiles"]

_REVALIDATE = "no-cache"  # keep, but ask the server (If-None-Match) before each use

_MISSING = (
    "tictactoe-server is running, but the browser client is not installed (no static/index.html).\n"
    "API: POST /api/rooms, GET /api/rooms, WebSocket /ws/{room_id} (docs/protocol.md).\n"
)


class ClientFiles(StaticFiles):
    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory, html=True, check_dir=False)
        self.root = directory

    async def get_response(self, path: str, scope: Scope) -> Response:
        index = self.root / "index.html"
        if not index.is_file():
            if scope["method"] in ("GET", "HEAD") and path in (".", ""):
                return PlainTextResponse(_MISSING)
            raise HTTPException(status_code=404)
        try:
            response = await super().get_response(path, scope)
        except HTTPException as exc:
            last = path.replace("\\", "/").rsplit("/", 1)[-1]
            if exc.status_code != 404 or "." in last or scope["method"] not in ("GET", "HEAD"):
                raise
            response = self.file_response(index, index.stat(), scope)  # a 304 when unchanged
        response.headers["cache-control"] = _REVALIDATE
        return response
