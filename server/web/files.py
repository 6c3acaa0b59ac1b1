"""The browser client's files (``static/``) served at ``/``, with an index fallback.

Any GET for a path that is not a file and does not look like one (``/r/q7m2kx9c``) answers
``index.html``, so the client's own routes work on reload. When ``static/index.html`` does
not exist (the client is not installed) ``/`` says so in plain text and nothing fails.

index.html is served with its style sheets and its whole module graph inside it (server/
static_page.py), so a first visit costs one request, and with the Content-Security-Policy
that lets exactly those two inline blocks run. What it still names (the icon) is under
``/v/{version}/`` (server/web/version.py: a hash of the whole client's content), and
such URLs are cached as ``immutable`` for a year; the files stay reachable one by one for
a page served by another file server. index.html and every plain
path (``/js/main.js``) go with their ``ETag`` and ``Cache-Control: no-cache``: the browser
asks each time whether they changed and an unchanged one comes back as a body-less ``304``.
A versioned URL whose version is not the current one (a page from before a release) is
answered with the current file, revalidated, never ``immutable``.

Text files go gzipped to a browser that accepts it (server/web/compression.py: compressed once
per file version, in memory), with their own ETag and ``Vary: Accept-Encoding``.
"""

from __future__ import annotations

import os
from pathlib import Path

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.staticfiles import NotModifiedResponse, StaticFiles
from starlette.types import Scope

from .compression import COMPRESSIBLE, GzipCache, accepts_gzip, gzip_etag
from .page import ServedPage, inline_page
from .version import ClientVersion, versioned_index

__all__ = ["IMMUTABLE", "REVALIDATE", "ClientFiles"]

REVALIDATE = "no-cache"  # keep, but ask the server (If-None-Match) before each use
IMMUTABLE = "public, max-age=31536000, immutable"  # a versioned URL never changes meaning

_MISSING = (
    "tictactoe-server is running, but the browser client is not installed (no static/index.html).\n"
    "API: POST /api/rooms, GET /api/rooms, WebSocket /ws/{room_id} (docs/protocol.md).\n"
)


class ClientFiles(StaticFiles):
    def __init__(self, directory: Path) -> None:
        super().__init__(directory=directory, html=True, check_dir=False)
        self.root = directory
        self._gzipped = GzipCache()
        self._version = ClientVersion(directory)
        self._page: tuple[str, ServedPage] | None = None  # (client version, its page)

    async def get_response(self, path: str, scope: Scope) -> Response:
        index = self.root / "index.html"
        if not index.is_file():
            if scope["method"] in ("GET", "HEAD") and path in (".", ""):
                return PlainTextResponse(_MISSING)
            raise HTTPException(status_code=404)
        head, _, rest = path.replace("\\", "/").partition("/")
        if head == "v" and "/" in rest:  # /v/{version}/js/main.js
            version, _, inner = rest.partition("/")
            response = await super().get_response(inner, scope)  # no index fallback here
            current = self._version.is_current(version)
            response.headers["cache-control"] = IMMUTABLE if current else REVALIDATE
            return response
        try:
            response = await super().get_response(path, scope)
        except HTTPException as exc:
            last = path.replace("\\", "/").rsplit("/", 1)[-1]
            if exc.status_code != 404 or "." in last or scope["method"] not in ("GET", "HEAD"):
                raise
            response = self.file_response(index, index.stat(), scope)  # a 304 when unchanged
        response.headers["cache-control"] = REVALIDATE
        return response

    def file_response(
        self,
        full_path: str | os.PathLike[str],
        stat_result: os.stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        """The file, gzipped when the browser accepts it and it gains; a 304 when unchanged.
        index.html is the served page (server/web/page.py), its icon under ``/v/{version}/``."""
        if Path(full_path).suffix.lower() not in COMPRESSIBLE:
            return super().file_response(full_path, stat_result, scope, status_code)
        if os.path.realpath(full_path) == os.path.realpath(self.root / "index.html"):
            return self._index_response(scope, status_code)
        request = Headers(scope=scope)
        plain = FileResponse(full_path, status_code=status_code, stat_result=stat_result)
        plain.headers["vary"] = "Accept-Encoding"
        body = None
        if accepts_gzip(request.get("accept-encoding", "")):
            body = self._gzipped.get(full_path, stat_result)
        if body is None:
            if self.is_not_modified(plain.headers, request):
                return NotModifiedResponse(plain.headers)
            return plain
        headers = {
            "etag": gzip_etag(plain.headers["etag"]),
            "last-modified": plain.headers["last-modified"],
        }
        return self._bytes_response(
            scope, status_code, body, headers, media_type=plain.media_type, zipped=True
        )

    def _index_response(self, scope: Scope, status_code: int) -> Response:
        return self.page_response(scope, None, status_code)

    def page_response(
        self, scope: Scope, block: bytes | None, status_code: int = 200, *, framed: bool = False
    ) -> Response:
        """The page (a 304 when the browser has it), carrying ``block`` before ``</body>``
        when one is given (server/web/room_page.py: the room the page shows); ``framed``:
        any site may put it in a frame (server/web/embed_page.py), no other page may."""
        version = self._version.current()
        if self._page is None or self._page[0] != version:
            page = inline_page(self.root)
            served = ServedPage(versioned_index(page.html, version), page.content_security_policy)
            self._page = (version, served)
        served = self._page[1]
        html, zipped, etag = (
            (served.html, served.zipped, served.etag) if block is None else served.with_data(block)
        )
        policy = served.content_security_policy
        if framed:
            policy = policy.replace("frame-ancestors 'none'", "frame-ancestors *")
        csp = {"content-security-policy": policy}
        if accepts_gzip(Headers(scope=scope).get("accept-encoding", "")):
            headers = {"etag": gzip_etag(etag), **csp}
            return self._bytes_response(
                scope, status_code, zipped, headers, media_type="text/html", zipped=True
            )
        headers = {"etag": etag, **csp}
        return self._bytes_response(
            scope, status_code, html, headers, media_type="text/html", zipped=False
        )

    def _bytes_response(
        self,
        scope: Scope,
        status_code: int,
        body: bytes,
        headers: dict[str, str],
        *,
        media_type: str | None,
        zipped: bool,
    ) -> Response:
        """A body from memory, as FileResponse would send it: a 304 for a matching ETag, no
        body for HEAD, and ``Vary: Accept-Encoding`` either way."""
        headers = {**headers, "vary": "Accept-Encoding", "content-length": str(len(body))}
        if zipped:
            headers["content-encoding"] = "gzip"
        if self.is_not_modified(Headers(headers), Headers(scope=scope)):
            unchanged = NotModifiedResponse(Headers(headers))
            if "content-security-policy" in headers:
                # a 304's headers replace the cached ones: without the page's own policy
                # the site's (no hashes) would stop the cached page's inline blocks
                unchanged.headers["content-security-policy"] = headers["content-security-policy"]
            return unchanged
        content = b"" if scope["method"] == "HEAD" else body
        return Response(content, status_code, headers=headers, media_type=media_type)
