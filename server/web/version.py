"""The client's version: a hash of every file's content, for URLs that never change meaning.

index.html is served with its module, style and icon URLs under ``/v/{version}/`` (a build-
free content hash of the whole client): the modules import each other by relative names,
so every import made from ``/v/{version}/js/main.js`` stays under the same prefix, and such a
URL can be cached as ``immutable``. A new release has a new version, so a new index.html
names new URLs; index.html itself is always revalidated. The hash is of contents (not
modification times), so every worker on every host serving the same files agrees on it.
"""

from __future__ import annotations

import hashlib
import re
from pathlib import Path
from threading import Lock

__all__ = ["ClientVersion", "versioned_index"]

_ASSET = re.compile(rb'(\b(?:href|src)=")/(js/|css/|favicon\.svg")')


def versioned_index(html: bytes, version: str) -> bytes:
    """index.html with its ``/js/``, ``/css/`` and favicon URLs under ``/v/{version}/``."""
    return _ASSET.sub(rb"\1/v/" + version.encode() + rb"/\2", html)


class ClientVersion:
    """The content hash of the files under ``root``, re-read only for files that changed."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._digests: dict[str, tuple[int, int, bytes]] = {}
        self._last = ""
        self._lock = Lock()

    def current(self) -> str:
        """Sixteen hex digits naming the client as it is on disk now."""
        whole = hashlib.sha256()
        with self._lock:
            for path in sorted(p for p in self.root.rglob("*") if p.is_file()):
                name = path.relative_to(self.root).as_posix()
                stat = path.stat()
                hit = self._digests.get(name)
                if hit is None or hit[:2] != (stat.st_size, stat.st_mtime_ns):
                    digest = hashlib.sha256(path.read_bytes()).digest()
                    hit = (stat.st_size, stat.st_mtime_ns, digest)
                    self._digests[name] = hit
                whole.update(name.encode() + b"\0" + hit[2])
            self._last = whole.hexdigest()[:16]
            return self._last

    def is_current(self, version: str) -> bool:
        """True when ``version`` names the files as they are (checked again on a mismatch)."""
        return version == self._last or version == self.current()
