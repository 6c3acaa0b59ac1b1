"""One backend chosen by URL: store, bus, presence registry, quick-play queue, player
directory, rating book, tournament shelf, guess book, fair-play ledger, bots' desk and push
book together.

``memory://`` (one process), ``redis://`` (``rediss://``, ``unix://``: one Redis, shared by
workers and hosts), ``redis+cluster://host:port[,host:port...]`` (a Redis Cluster) or
``redis+sentinel://host:port[,host:port...]/service[/db]`` (one primary found through Redis
Sentinel and followed through failovers). The
Redis driver is imported only for a Redis URL, and nothing connects here: ``open()`` does,
inside the running loop.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from rooms.backends.bus import Bus
from rooms.backends.memory import MemoryBus, MemoryStore
from rooms.backends.queue import MemoryQueue, QuickPlayQueue
from rooms.backends.registry import MemoryRegistry, Registry
from rooms.backends.store import Store
from rooms.bots.desk import BotDesk, MemoryBotDesk
from rooms.errors import UnsupportedBackend
from rooms.fairplay import FairPlayLedger, MemoryLedger
from rooms.guesses.book import GuessBook, MemoryGuessBook
from rooms.players import MemoryDirectory, PlayerDirectory
from rooms.push import MemoryPushBook, PushBook
from rooms.ratings import MemoryBook, RatingBook
from rooms.tournaments.shelf import MemoryShelf, TournamentShelf

__all__ = ["Backend", "BackendOptions", "open_backend", "redact_url"]

REDIS_SCHEMES = frozenset({"redis", "rediss", "unix"})
CLUSTER_SCHEMES = frozenset({"redis+cluster", "rediss+cluster"})
SENTINEL_SCHEMES = frozenset({"redis+sentinel", "rediss+sentinel"})


@dataclass(frozen=True, slots=True)
class BackendOptions:
    log_size: int = 256
    """Events kept per room for resuming connections."""
    room_ttl: float = 24 * 3600.0
    """Seconds an untouched room lives."""
    max_rooms: int = 100_000
    """Rooms the memory store holds at most (Redis is bounded by its own memory)."""
    registry_timeout: float = 2.0
    """Seconds a presence registry command may take before it counts as failed."""
    auto_pipeline: bool = True
    """Redis: auto-pipeline the hot commands and pack commands with our own RESP packer
    (``RedisOptions.auto_pipeline``); False: plain redis-py calls, the same commands."""
    max_players: int = 100_000
    """Player identities the memory directory holds at most (Redis: its own memory)."""


@dataclass(frozen=True, slots=True)
class Backend:
    url: str
    store: Store
    bus: Bus
    registry: Registry
    queue: QuickPlayQueue
    players: PlayerDirectory
    """Guest identities (rooms.players), in the same store as the rooms; it shares the store's
    connections, so opening and closing the store covers it."""
    ratings: RatingBook
    """Ratings per pool (rooms.ratings), in the same store and on its connections too."""
    tournaments: TournamentShelf
    """Tournament records (rooms.tournaments), in the same store, on its connections."""
    guesses: GuessBook
    """Spectators' guesses per room and ply (rooms.guesses), in the same store too."""
    fairplay: FairPlayLedger = field(default_factory=MemoryLedger)
    """Fair-play counts per identity (rooms.fairplay), in the same store, on its connections."""
    bot_desk: BotDesk = field(default_factory=MemoryBotDesk)
    """Bots' challenges, seats and online marks (rooms.bots.desk), in the same store too."""
    push: PushBook = field(default_factory=MemoryPushBook)
    """Identities' push subscriptions and the VAPID key (rooms.push), in the same store too."""

    @property
    def shared(self) -> bool:
        """Whether several processes can share this backend (memory cannot)."""
        return self.store.name != "memory"

    async def open(self) -> None:
        await self.bus.open()
        await self.store.open()
        await self.registry.open()

    async def close(self) -> None:
        await self.registry.close()
        await self.store.close()
        await self.bus.close()


def open_backend(url: str, options: BackendOptions | None = None) -> Backend:
    """The backend for ``url`` (not yet opened). Raises UnsupportedBackend."""
    options = options or BackendOptions()
    scheme = urlsplit(url).scheme.lower()
    if scheme == "memory":
        memory_bus = MemoryBus()
        memory_store = MemoryStore(
            memory_bus,
            log_size=options.log_size,
            room_ttl=options.room_ttl,
            max_rooms=options.max_rooms,
        )
        players = MemoryDirectory(max_players=options.max_players)
        return Backend(
            url,
            memory_store,
            memory_bus,
            MemoryRegistry(),
            MemoryQueue(),
            players,
            MemoryBook(),
            MemoryShelf(),
            MemoryGuessBook(),
        )
    if scheme not in REDIS_SCHEMES | CLUSTER_SCHEMES | SENTINEL_SCHEMES:
        raise UnsupportedBackend(
            f"unknown store URL {redact_url(url)!r}: expected memory://, redis://host:port/db, "
            "redis+cluster://host:port[,host:port...] or "
            "redis+sentinel://host:port[,host:port...]/service_name/db"
        )
    # the driver loads only for a Redis URL
    from rooms.backends.redis.bot_desk import RedisBotDesk
    from rooms.backends.redis.connect import RedisOptions
    from rooms.backends.redis.fairplay import RedisLedger
    from rooms.backends.redis.guesses import RedisGuessBook
    from rooms.backends.redis.players import RedisDirectory
    from rooms.backends.redis.presence import redis_registry
    from rooms.backends.redis.push import RedisPushBook
    from rooms.backends.redis.quickplay import RedisQueue
    from rooms.backends.redis.ratings import RedisBook
    from rooms.backends.redis.tournaments import RedisShelf

    redis_options = RedisOptions(auto_pipeline=options.auto_pipeline)
    store: Store
    bus: Bus
    registry: Registry
    if scheme in SENTINEL_SCHEMES:
        from rooms.backends.redis.sentinel import sentinel_backend

        store, bus, registry = sentinel_backend(
            url,
            log_size=options.log_size,
            room_ttl=options.room_ttl,
            options=redis_options,
            registry_timeout=options.registry_timeout,
        )
        return Backend(
            url,
            store,
            bus,
            registry,
            RedisQueue.of_store(store),
            RedisDirectory.of_store(store),
            RedisBook.of_store(store),
            RedisShelf.of_store(store),
            RedisGuessBook.of_store(store),
            RedisLedger.of_store(store),
            RedisBotDesk.of_store(store),
            RedisPushBook.of_store(store),
        )
    if scheme in CLUSTER_SCHEMES:
        from rooms.backends.redis.cluster.pair import cluster_pair

        store, bus = cluster_pair(
            url, log_size=options.log_size, room_ttl=options.room_ttl, options=redis_options
        )
    else:
        from rooms.backends.redis.pair import redis_pair

        store, bus = redis_pair(
            url, log_size=options.log_size, room_ttl=options.room_ttl, options=redis_options
        )
    registry = redis_registry(
        url, timeout=options.registry_timeout, auto_pipeline=options.auto_pipeline
    )
    return Backend(
        url,
        store,
        bus,
        registry,
        RedisQueue.of_store(store),
        RedisDirectory.of_store(store),
        RedisBook.of_store(store),
        RedisShelf.of_store(store),
        RedisGuessBook.of_store(store),
        RedisLedger.of_store(store),
        RedisBotDesk.of_store(store),
        RedisPushBook.of_store(store),
    )


_SECRET_PARAMETER = re.compile(r"(?i)([^&=]*(?:password|secret|token)[^&=]*)=([^&]*)")


def redact_url(url: str) -> str:
    """A store URL fit to print: its password (``user:password@``) and the value of every
    query parameter named like a secret (``sentinel_password``, ``password``...) as
    ``***``; the rest as given."""
    parts = urlsplit(url)
    netloc = parts.netloc
    if parts.password is not None:
        login, _, hosts = netloc.rpartition("@")
        netloc = f"{login.partition(':')[0]}:***@{hosts}"
    query = _SECRET_PARAMETER.sub(r"\1=***", parts.query)
    if (netloc, query) == (parts.netloc, parts.query):
        return url  # as given: geturl() would drop an empty netloc (memory://)
    return parts._replace(netloc=netloc, query=query).geturl()
