"""Store and bus chosen by URL: ``memory://`` (one process), ``redis://`` (one Redis,
shared) or ``redis+cluster://host:port[,host:port...]`` (a Redis Cluster, shared).

Drivers are imported lazily, only for the URL that needs them, and nothing connects here:
the server's lifespan calls ``open()`` on both inside the running loop.
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit

from .bus import Bus
from .errors import ErrorCode, RoomError
from .memory import MemoryBus, MemoryStore
from .store import Store

__all__ = ["Backend", "BackendOptions", "UnsupportedBackend", "open_backend"]


class UnsupportedBackend(RoomError):
    """The URL names a backend this build cannot use (unknown, or not implemented yet)."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.UNAVAILABLE, message)


@dataclass(frozen=True, slots=True)
class BackendOptions:
    log_size: int = 256
    room_ttl: float = 24 * 3600.0
    max_rooms: int = 100_000


@dataclass(frozen=True, slots=True)
class Backend:
    url: str
    store: Store
    bus: Bus

    @property
    def shared(self) -> bool:
        """Whether several processes can share this backend (memory cannot)."""
        return self.store.name != "memory"

    async def open(self) -> None:
        await self.bus.open()
        await self.store.open()

    async def close(self) -> None:
        await self.store.close()
        await self.bus.close()


def open_backend(url: str, options: BackendOptions | None = None) -> Backend:
    """The store and bus for ``url`` (not yet opened). Raises UnsupportedBackend."""
    options = options or BackendOptions()
    scheme = urlsplit(url).scheme.lower()
    if scheme == "memory":
        bus = MemoryBus()
        store = MemoryStore(
            bus, log_size=options.log_size, room_ttl=options.room_ttl, max_rooms=options.max_rooms
        )
        return Backend(url, store, bus)
    if scheme in {"redis", "rediss", "unix"}:
        from .redis_backend import redis_pair  # the Redis driver loads only for Redis URLs

        redis_store, redis_bus = redis_pair(
            url, log_size=options.log_size, room_ttl=options.room_ttl
        )
        return Backend(url, redis_store, redis_bus)
    if scheme in {"redis+cluster", "rediss+cluster"}:
        from .redis_cluster import cluster_pair  # loads the Redis driver, as above

        cluster_store, cluster_bus = cluster_pair(
            url, log_size=options.log_size, room_ttl=options.room_ttl
        )
        return Backend(url, cluster_store, cluster_bus)
    raise UnsupportedBackend(
        f"unknown store URL {_redact(url)!r}: expected memory://, redis://host:port/db or "
        "redis+cluster://host:port[,host:port...]"
    )


def _redact(url: str) -> str:
    """A URL without its password, for messages and logs."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return parts._replace(netloc=netloc).geturl()
