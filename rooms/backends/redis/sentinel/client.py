"""Clients whose every connection goes to the primary Sentinel names at the moment it connects.

redis-py's ``SentinelManagedConnection`` asks Sentinel only in ``connect()``; a connection that
broke and is reopened by a write (``send_packed_command``, as the auto-pipeline's kept
connection and redis-py's own retries do) would go back to the address it had, the old primary.
``FollowingConnection`` asks in ``_connect``, the one place every path opens its socket, so no
connection is ever reopened to a demoted primary. The pool blocks for a free connection like
``make_client``'s (``BlockingConnectionPool``) and is redis-py's ``SentinelConnectionPool``
otherwise: a ``READONLY`` reply (a primary demoted under a live connection) drops that connection.
"""

from __future__ import annotations

from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.connection import BlockingConnectionPool, SSLConnection
from redis.asyncio.retry import Retry
from redis.asyncio.sentinel import Sentinel, SentinelConnectionPool, SentinelManagedConnection
from redis.backoff import ExponentialBackoff

from rooms.backends.redis.connect import RedisOptions
from rooms.backends.redis.sentinel.url import SentinelURL
from rooms.errors import UnsupportedBackend

__all__ = ["FollowingConnection", "FollowingPool", "make_sentinel", "make_sentinel_client"]


class FollowingConnection(SentinelManagedConnection):
    """Connects to the primary Sentinel names now (a replica for a replica pool)."""

    async def _connect(self) -> Any:
        pool = self.connection_pool
        if pool.is_master:
            self.host, self.port = await pool.get_master_address()
        return await super()._connect()  # type: ignore[no-untyped-call]


class FollowingSSLConnection(FollowingConnection, SSLConnection):
    pass


class FollowingPool(SentinelConnectionPool, BlockingConnectionPool):
    """redis-py's Sentinel pool, waiting for a free connection instead of failing past
    ``max_connections`` (the store call's deadline bounds the wait, as for one Redis)."""


def make_sentinel(parsed: SentinelURL, options: RedisOptions) -> Sentinel:
    """The client of the Sentinels themselves (nothing connects here)."""
    kwargs: dict[str, Any] = {
        "socket_timeout": options.socket_timeout,
        "socket_connect_timeout": options.connect_timeout,
        **parsed.sentinel_kwargs,
    }
    if parsed.tls:
        kwargs["ssl"] = True
    return Sentinel(parsed.sentinels, sentinel_kwargs=kwargs)  # type: ignore[no-untyped-call]


def make_sentinel_client(
    sentinel: Sentinel,
    parsed: SentinelURL,
    options: RedisOptions,
    *,
    client_name: str | None = None,
) -> aioredis.Redis:
    """A pooled client of ``parsed.service``'s primary that decodes replies to str (not
    connected yet); ``client_name`` names its connections in ``CLIENT LIST``."""
    try:
        settings: dict[str, Any] = {
            "connection_class": FollowingSSLConnection if parsed.tls else FollowingConnection,
            "max_connections": options.pool_size,
            "timeout": None,  # no timer per call: ``guarded``'s deadline bounds the wait
            "db": parsed.db,
            "decode_responses": True,
            "socket_timeout": options.socket_timeout,
            "socket_connect_timeout": options.connect_timeout,
            "retry": Retry(ExponentialBackoff(cap=0.2, base=0.02), options.retries),
            "health_check_interval": 0,
            "client_name": client_name,
            **parsed.kwargs,  # the URL's own parameters win, as with ``from_url``
        }
        pool = FollowingPool(parsed.service, sentinel, **settings)  # type: ignore[no-untyped-call]
    except (ValueError, TypeError) as exc:
        raise UnsupportedBackend(f"bad Redis Sentinel URL: {exc}") from None
    client = aioredis.Redis(connection_pool=pool)
    client.auto_close_connection_pool = True
    return client
