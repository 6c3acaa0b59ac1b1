"""Gzip for the browser client's text files, compressed once per file version, kept in memory.

The client is a few dozen small text files (ES modules, CSS, HTML, SVG) that compress to
a quarter of their size. Each is compressed at the highest level the first time a browser
that accepts gzip asks for it, and kept keyed by its path, size and modification time, so a
changed file is compressed again and an unchanged one costs nothing. The standard library
has no brotli, so gzip it is. A gzipped body carries its own ETag (the file's, with
``-gzip`` inside the quotes): a cache never mixes the two encodings up, and ``Vary:
Accept-Encoding`` tells shared caches to keep them apart.
"""

from __future__ import annotations

import gzip
import os
from pathlib import Path
from threading import Lock

__all__ = ["COMPRESSIBLE", "GzipCache", "accepts_gzip", "gzip_etag"]

COMPRESSIBLE = frozenset({".js", ".mjs", ".css", ".html", ".svg", ".json", ".txt", ".md", ".map"})
_MIN_SIZE = 256  # below this the gzip header eats most of the gain
_MAX_SIZE = 4 * 1024 * 1024  # a larger file is sent as it is (none is near this)
_MAX_ENTRIES = 512  # the client has ~60 files; a bound in case a folder grows


def accepts_gzip(accept_encoding: str) -> bool:
    """True when the ``Accept-Encoding`` header allows gzip (``gzip``, or ``*``), q > 0."""
    gzip_q: float | None = None
    star_q: float | None = None
    for part in accept_encoding.split(","):
        name, _, params = part.strip().partition(";")
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0  # an unreadable weight is no permission
        name = name.strip().lower()
        if name in ("gzip", "x-gzip"):
            gzip_q = q if gzip_q is None else max(gzip_q, q)
        elif name == "*":
            star_q = q
    if gzip_q is not None:
        return gzip_q > 0
    return star_q is not None and star_q > 0


def gzip_etag(etag: str) -> str:
    """``"abc"`` → ``"abc-gzip"`` (``W/`` kept): a distinct tag for the gzipped body."""
    weak = etag.startswith("W/")
    tag = etag.removeprefix("W/")
    inner = tag[1:-1] if len(tag) >= 2 and tag[0] == tag[-1] == '"' else tag
    return ("W/" if weak else "") + f'"{inner}-gzip"'


class GzipCache:
    """Gzipped bodies of files, one per (path, size, mtime); None when gzip is not worth it."""

    def __init__(self) -> None:
        self._entries: dict[str, tuple[int, int, bytes | None]] = {}
        self._lock = Lock()  # file_response may run in a thread pool

    def get(self, path: str | os.PathLike[str], stat: os.stat_result) -> bytes | None:
        key = os.fspath(path)
        if Path(key).suffix.lower() not in COMPRESSIBLE:
            return None
        if not _MIN_SIZE <= stat.st_size <= _MAX_SIZE:
            return None
        with self._lock:
            hit = self._entries.get(key)
        if hit is not None and hit[0] == stat.st_size and hit[1] == stat.st_mtime_ns:
            return hit[2]
        try:
            raw = Path(key).read_bytes()
        except OSError:
            return None  # gone since the stat: the plain response reports it
        if len(raw) != stat.st_size:
            return None  # changed since the stat: sent plain this once, compressed next time
        body: bytes | None = gzip.compress(raw, compresslevel=9, mtime=0)
        if body is not None and len(body) >= len(raw):
            body = None  # nothing gained: send it as it is
        with self._lock:
            if len(self._entries) >= _MAX_ENTRIES:
                self._entries.clear()
            self._entries[key] = (stat.st_size, stat.st_mtime_ns, body)
        return body
