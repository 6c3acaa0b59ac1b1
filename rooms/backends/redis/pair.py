"""The Redis store and bus for a ``redis://`` (``rediss://``, ``unix://``) URL.

rooms.backends.open imports this module only for a Redis URL, so the driver is loaded only when
it is used. Nothing connects here: ``open()`` on the store and bus does, in the running
loop. The store and the bus each keep their own connection pool; the bus adds the one
pub/sub connection of the worker. ``?prefix=NAME`` in the URL sets the key prefix
(default ``ttt``), so several deployments can share one Redis database.
"""

from __future__ import annotations

from rooms.backends.redis.bus import RedisBus
from rooms.backends.redis.connect import RedisOptions, split_url
from rooms.backends.redis.store import DAY, RedisStore

__all__ = ["redis_pair"]


def redis_pair(
    url: str,
    *,
    log_size: int = 256,
    room_ttl: float = DAY,
    finished_ttl: float = DAY,
    options: RedisOptions | None = None,
) -> tuple[RedisStore, RedisBus]:
    """A store and a bus on ``url`` (not opened). Raises UnsupportedBackend for a bad URL."""
    plain, prefix = split_url(url)
    options = options or RedisOptions()
    store = RedisStore(
        plain,
        prefix=prefix,
        options=options,
        log_size=log_size,
        room_ttl=room_ttl,
        finished_ttl=finished_ttl,
    )
    bus = RedisBus(plain, prefix=prefix, options=options)
    return store, bus
