"""The Origin check made before a WebSocket is accepted (cross-site WebSocket hijacking).

Browsers always send ``Origin`` on a WebSocket handshake and a page cannot forge it, so a
handshake is accepted when the Origin is the server's own (same scheme-less host and port
as the ``Host`` header), is on the allowlist, or the allowlist holds ``*``. A handshake
without Origin comes from a non-browser client (the CLI, a bot), which cookies and ambient
credentials cannot be abused through, and is accepted.
"""

from __future__ import annotations

from collections.abc import Collection
from urllib.parse import urlsplit

__all__ = ["normalize_origin", "origin_allowed"]


def normalize_origin(origin: str) -> str:
    """``scheme://host[:port]`` in lower case, without a trailing slash or default port."""
    parts = urlsplit(origin.strip().lower())
    if not parts.scheme or not parts.hostname:
        raise ValueError(f"not an origin: {origin!r} (expected scheme://host[:port])")
    default = {"http": 80, "https": 443}.get(parts.scheme)
    try:
        port = parts.port
    except ValueError as exc:
        raise ValueError(f"not an origin: {origin!r} ({exc})") from exc
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    suffix = f":{port}" if port is not None and port != default else ""
    return f"{parts.scheme}://{host}{suffix}"


def origin_allowed(origin: str | None, host: str | None, allowed: Collection[str]) -> bool:
    """Whether a handshake with this ``Origin`` (None: absent) to this ``Host`` may proceed."""
    if origin is None:
        return True
    if "*" in allowed:
        return True
    try:
        normalized = normalize_origin(origin)
    except ValueError:
        return False  # "null" (sandboxed iframes, file://) and garbage
    if normalized in allowed:
        return True
    if host:
        netloc = urlsplit(normalized).netloc
        scheme = urlsplit(normalized).scheme
        for candidate in (f"http://{host}", f"https://{host}"):
            try:
                if normalize_origin(candidate) == f"{scheme}://{netloc}":
                    return True
            except ValueError:
                continue
    return False
