"""Parsing ``redis+sentinel://`` (``rediss+sentinel://``) URLs.

``redis+sentinel://[user:password@]host:port[,host:port...]/service_name[/db][?prefix=NAME&...]``
names one or more Sentinels and the service (the name in ``sentinel monitor``). The credentials
are the primary's; ``sentinel_username`` and ``sentinel_password`` query parameters log in to
the Sentinels when they require it. ``prefix`` is our key prefix (as for ``redis://``), every
other query parameter redis-py's. ``rediss+sentinel`` speaks TLS to the Sentinels and the data
nodes alike.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, unquote, urlencode, urlsplit

from redis.asyncio.connection import SSLConnection, parse_url

from rooms.backends.redis.connect import host_port
from rooms.backends.redis.keys import DEFAULT_PREFIX
from rooms.errors import UnsupportedBackend

__all__ = ["SENTINEL_SCHEMES", "SentinelURL", "parse_sentinel_url"]

SENTINEL_SCHEMES = {"redis+sentinel": "redis", "rediss+sentinel": "rediss"}
"""Our Sentinel schemes and the plain Redis scheme each one speaks to the data nodes."""

_SENTINEL_LOGIN = ("sentinel_username", "sentinel_password")


@dataclass(frozen=True, slots=True)
class SentinelURL:
    sentinels: tuple[tuple[str, int], ...]
    service: str
    db: int = 0
    prefix: str = DEFAULT_PREFIX
    tls: bool = False
    kwargs: dict[str, Any] = field(default_factory=dict)
    """redis-py connection keywords for the primary: credentials, TLS and query parameters."""
    sentinel_kwargs: dict[str, Any] = field(default_factory=dict)
    """Credentials for the Sentinels themselves (``sentinel_username``/``_password``)."""


def parse_sentinel_url(url: str) -> SentinelURL:
    """The Sentinels, service, database, key prefix and client keywords of a Sentinel URL
    (UnsupportedBackend if it is not one we can use)."""
    parts = urlsplit(url)
    plain = SENTINEL_SCHEMES.get(parts.scheme.lower())
    if plain is None:
        raise UnsupportedBackend(f"not a Redis Sentinel URL: {parts.scheme or url!r:.80}")
    userinfo, _, hosts = parts.netloc.rpartition("@")
    sentinels = tuple(
        host_port(item, "a Sentinel address") for item in hosts.split(",") if item.strip()
    )
    if not sentinels:
        raise UnsupportedBackend("a Redis Sentinel URL needs at least one host:port")
    path = [unquote(piece) for piece in parts.path.strip("/").split("/")] if parts.path else []
    if not path or not path[0] or len(path) > 2:
        raise UnsupportedBackend(
            f"a Redis Sentinel URL needs /service_name[/db] after the hosts, not {parts.path!r:.80}"
        )
    service, db_text = path[0], (path[1] if len(path) == 2 else "0")
    if not db_text.isdigit():
        raise UnsupportedBackend(f"the Redis database must be a number, not {db_text!r:.20}")
    query = parse_qsl(parts.query, keep_blank_values=True)
    prefixes = [value for key, value in query if key == "prefix"]
    sentinel_kwargs = {
        key.removeprefix("sentinel_"): value for key, value in query if key in _SENTINEL_LOGIN
    }
    rest = urlencode(
        [(key, value) for key, value in query if key not in {"prefix", *_SENTINEL_LOGIN}]
    )
    # redis-py reads credentials, TLS and typed query parameters from a one-host URL.
    login = f"{userinfo}@" if userinfo else ""
    try:
        kwargs: dict[str, Any] = dict(
            parse_url(f"{plain}://{login}localhost:6379/{db_text}?{rest}")
        )
    except (ValueError, TypeError) as exc:
        raise UnsupportedBackend(f"bad Redis Sentinel URL: {exc}") from None
    for key in ("host", "port", "db", "path"):
        kwargs.pop(key, None)
    tls = kwargs.pop("connection_class", None) is SSLConnection
    return SentinelURL(
        sentinels,
        service,
        int(db_text),
        prefixes[-1] if prefixes else DEFAULT_PREFIX,
        tls,
        kwargs,
        sentinel_kwargs,
    )
