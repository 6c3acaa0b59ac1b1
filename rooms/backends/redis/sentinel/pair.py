"""The store, bus and presence registry for a ``redis+sentinel://`` URL.

rooms.backends.open imports this module only for a Sentinel URL. They are the single-Redis
ones, each on its own client (its own pool, as for ``redis://``), every client on the primary
Sentinel names (``client``) and followed through failovers by one ``MasterWatch``, which the
bus runs while it is open (the bus opens first and closes last of the three). Nothing connects
here.
"""

from __future__ import annotations

from rooms.backends.redis.bus import RedisBus
from rooms.backends.redis.connect import RedisOptions
from rooms.backends.redis.presence import RedisRegistry
from rooms.backends.redis.sentinel.client import make_sentinel, make_sentinel_client
from rooms.backends.redis.sentinel.url import SentinelURL, parse_sentinel_url
from rooms.backends.redis.sentinel.watch import MasterWatch
from rooms.backends.redis.store import DAY, RedisStore

__all__ = ["SentinelBus", "sentinel_backend"]


class SentinelBus(RedisBus):
    """The Redis bus, running the backend's ``MasterWatch``: at a failover its pub/sub
    connection is dropped, and the reader reconnects to the new primary, resubscribes and
    redelivers each room's latest event (as after any reconnect)."""

    def __init__(
        self, watch: MasterWatch, parsed: SentinelURL, *, prefix: str, options: RedisOptions
    ) -> None:
        client = watch.follow(make_sentinel_client(watch.sentinel, parsed, options))
        super().__init__(client=client, prefix=prefix, options=options)
        self.watch = watch
        watch.on_switch(self._drop)

    async def open(self) -> None:
        await super().open()
        self.watch.start()

    async def close(self) -> None:
        await super().close()
        await self.watch.close()

    async def _drop(self) -> None:
        conn = self._conn
        if conn is not None:
            await conn.disconnect(nowait=True)  # the reader reconnects


def sentinel_backend(
    url: str,
    *,
    log_size: int = 256,
    room_ttl: float = DAY,
    finished_ttl: float = DAY,
    options: RedisOptions | None = None,
    registry_timeout: float = 2.0,
) -> tuple[RedisStore, SentinelBus, RedisRegistry]:
    """A store, bus and presence registry on the primary of ``url``'s service (not opened).
    Raises UnsupportedBackend for a bad URL."""
    parsed = parse_sentinel_url(url)
    options = options or RedisOptions()
    watch = MasterWatch(make_sentinel(parsed, options), parsed.service)
    store = RedisStore(
        url,
        client=watch.follow(make_sentinel_client(watch.sentinel, parsed, options)),
        prefix=parsed.prefix,
        options=options,
        log_size=log_size,
        room_ttl=room_ttl,
        finished_ttl=finished_ttl,
    )
    bus = SentinelBus(watch, parsed, prefix=parsed.prefix, options=options)
    registry_options = RedisOptions(timeout=registry_timeout, auto_pipeline=options.auto_pipeline)
    registry_client = make_sentinel_client(
        watch.sentinel, parsed, registry_options, client_name=f"{parsed.prefix}-presence"
    )
    registry = RedisRegistry(
        watch.follow(registry_client),
        prefix=parsed.prefix,
        timeout=registry_timeout,
        own_client=False,
        auto_pipeline=options.auto_pipeline,
    )
    return store, bus, registry
