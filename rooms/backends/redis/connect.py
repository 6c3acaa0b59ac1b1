"""Reaching Redis with bounded waits, and Redis failures as the rooms layer's typed errors.

A store call never hangs: each runs under an overall deadline (``timeout``, retries included) on
top of redis-py's socket timeouts (``guarded``, an ``asyncio.timeout`` per call; the hot
auto-pipelined calls share one timer, ``deadlines``), and every way Redis can fail to answer
(refused, reset, silent, loading, out of memory, a replica) becomes ``RoomError(unavailable,
"... retry")``. The client needs no reconnect logic: the pool drops a broken connection and
opens a new one on the next call. Our own URL query parameter (``prefix``, the key prefix) is
split off here; every other one is redis-py's.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from types import TracebackType
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

import redis.asyncio as aioredis
from redis import exceptions as rx
from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff

from rooms.backends.redis.keys import DEFAULT_PREFIX
from rooms.common import metrics
from rooms.errors import ErrorCode, RoomError, UnsupportedBackend

__all__ = [
    "Beside",
    "beside",
    "host_port",
    "RedisClient",
    "RedisOptions",
    "guarded",
    "make_client",
    "raise_typed",
    "split_url",
    "text",
    "unavailable",
]

RedisClient = aioredis.Redis | RedisCluster
"""What the store talks to: one Redis, or a Cluster (``cluster.pair``); both take the same
commands, scripts and non-transactional pipelines for what the store sends."""

_TRANSIENT_REPLIES = ("BUSY", "NOREPLICAS", "MISCONF")
"""Reply prefixes that mean "Redis cannot do this right now", not "this is a bug"."""
_TRANSIENT_ERRORS = (
    rx.OutOfMemoryError,
    rx.ReadOnlyError,
    rx.TryAgainError,
    rx.ClusterDownError,
    rx.AskError,
    rx.NoScriptError,  # a replica just promoted has not got the script yet: the retry loads it
)
"""The same, for the replies redis-py already turns into their own classes (a MOVED or ASK
that outlived the cluster client's own redirections is a topology still settling)."""


@dataclass(frozen=True, slots=True)
class RedisOptions:
    timeout: float = 2.0
    """Seconds one store call may take, retries included, before it raises unavailable
    (the hot calls: up to a quarter more, as their shared timer looks: ``deadlines``)."""
    socket_timeout: float = 1.0
    connect_timeout: float = 1.0
    retries: int = 1
    """Quick retries of a command whose connection broke (a restarted Redis, a reset)."""
    pool_size: int = 64
    """Connections per client; more concurrent commands wait for a free one."""
    auto_pipeline: bool = True
    """Send the hot commands auto-pipelined (``batch``), pack the bus's commands with our own
    RESP packer (``resp``) and read its replies through the wire (``wire``). False: every
    command and reply through plain redis-py calls, the same commands and replies
    (``--no-fastpath``)."""

    def __post_init__(self) -> None:
        for name in ("timeout", "socket_timeout", "connect_timeout"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
                raise UnsupportedBackend(f"redis {name} must be a number above 0, not {value!r}")
        if (
            isinstance(self.retries, bool)
            or not isinstance(self.retries, int)
            or not (0 <= self.retries <= 10)
        ):
            raise UnsupportedBackend(f"redis retries must be 0-10, not {self.retries!r}")
        if (
            isinstance(self.pool_size, bool)
            or not isinstance(self.pool_size, int)
            or (self.pool_size < 1)
        ):
            raise UnsupportedBackend(f"redis pool_size must be 1 or more, not {self.pool_size!r}")
        if not isinstance(self.auto_pipeline, bool):
            raise UnsupportedBackend(
                f"redis auto_pipeline must be True or False, not {self.auto_pipeline!r}"
            )


def split_url(url: str) -> tuple[str, str]:
    """``(url without our parameters, key prefix)``; UnsupportedBackend for a bad URL."""
    parts = urlsplit(url)
    if parts.scheme.lower() not in {"redis", "rediss", "unix"}:
        raise UnsupportedBackend(f"not a Redis URL: {parts.scheme or url!r:.80}")
    query = parse_qsl(parts.query, keep_blank_values=True)
    prefixes = [value for key, value in query if key == "prefix"]
    rest = [(key, value) for key, value in query if key != "prefix"]
    prefix = prefixes[-1] if prefixes else DEFAULT_PREFIX
    return parts._replace(query=urlencode(rest)).geturl(), prefix


def host_port(text: str, what: str) -> tuple[str, int]:
    """``host:port`` (IPv6 in brackets) from one comma-separated item of a multi-host URL;
    UnsupportedBackend naming ``what`` (a cluster seed, a Sentinel address) otherwise."""
    host, sep, port = text.strip().rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UnsupportedBackend(f"{what} must be host:port, not {text!r:.80}")
    return host.strip("[]"), int(port)


def make_client(
    url: str, options: RedisOptions, *, client_name: str | None = None
) -> aioredis.Redis:
    """A pooled asyncio client that decodes replies to str (not connected yet);
    ``client_name`` names its connections in ``CLIENT LIST``."""
    try:
        # A busy worker has more commands in flight than it should hold connections: they
        # wait for one of ``pool_size`` (within the store call's deadline, ``guarded``)
        # instead of failing, as they do past 100 with redis-py's default pool.
        pool = aioredis.BlockingConnectionPool.from_url(
            url,
            max_connections=options.pool_size,
            timeout=None,  # no timer per call: ``guarded``'s deadline bounds the wait
            decode_responses=True,
            socket_timeout=options.socket_timeout,
            socket_connect_timeout=options.connect_timeout,
            retry=Retry(ExponentialBackoff(cap=0.2, base=0.02), options.retries),
            health_check_interval=0,
            client_name=client_name,
        )
        client = aioredis.Redis(connection_pool=pool)
        client.auto_close_connection_pool = True  # aclose() closes the pool, as from_url's
        return client
    except (ValueError, TypeError) as exc:
        raise UnsupportedBackend(f"bad Redis URL: {exc}") from None


def text(value: Any) -> str:
    """A reply as str, whether or not the (possibly injected) client decodes replies."""
    if isinstance(value, bytes):
        return value.decode()
    return str(value)


def unavailable(what: str, reason: str) -> RoomError:
    """The error for Redis failing ``what`` (a fixed operation name), counted as it is made."""
    metrics.sink.unavailable(what)
    return RoomError(
        ErrorCode.UNAVAILABLE,
        f"the room store (Redis) is unavailable ({what}: {reason}); retry in a moment",
    )


class guarded:  # lower case: used as ``async with guarded(...)``, as the function it was
    """Run the block under ``timeout`` seconds; Redis failures become typed RoomErrors.

    RoomErrors raised inside pass through untouched. A class rather than an
    ``@asynccontextmanager`` generator: every store call enters one, and the generator's
    machinery would be a cost of its own on that path.
    """

    __slots__ = ("_deadline", "_timeout", "_what")

    def __init__(self, what: str, timeout: float) -> None:
        self._what = what
        self._timeout = timeout
        self._deadline = asyncio.timeout(timeout)

    async def __aenter__(self) -> None:
        await self._deadline.__aenter__()

    async def __aexit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        try:
            await self._deadline.__aexit__(kind, exc, tb)
        except TimeoutError:  # the overall deadline (asyncio's, a builtin TimeoutError)
            raise unavailable(self._what, f"no answer within {self._timeout:g}s") from None
        raise_typed(self._what, exc)


def _raised_in_driver(exc: BaseException) -> bool:
    """Whether the innermost frame of ``exc``'s traceback outside the event loop (asyncio's
    streams and uvloop's transports, which redis-py writes through) is redis-py's."""
    tb = exc.__traceback__
    last = ""
    while tb is not None:
        module = str(tb.tb_frame.f_globals.get("__name__", ""))
        if not module.startswith(("asyncio", "uvloop")):
            last = module
        tb = tb.tb_next
    return last.startswith("redis.")


def raise_typed(what: str, exc: BaseException | None) -> None:
    """Raise the RoomError that stands for the Redis failure ``exc`` while doing ``what``;
    return (the caller lets ``exc`` go on) for no error, a RoomError, a cancel and
    anything that is not Redis'."""
    if exc is None or isinstance(exc, RoomError) or not isinstance(exc, Exception):
        return
    if isinstance(exc, rx.ConnectionError | rx.TimeoutError | OSError):
        raise unavailable(what, str(exc) or type(exc).__name__) from None
    if isinstance(exc, AttributeError | RuntimeError) and _raised_in_driver(exc):
        # redis-py's connection code itself breaking on a connection that closed under it
        # (its writer gone, the transport closed), as a cluster node dies: a lost link.
        raise unavailable(what, f"{type(exc).__name__}: {exc}") from None
    if isinstance(exc, rx.ClusterError | rx.RedisClusterException):
        # A cluster that cannot be reached, has a slot nobody serves, or kept
        # redirecting: a failover or resharding in progress, not a bug
        # (RedisClusterException is not even a RedisError).
        raise unavailable(what, str(exc) or type(exc).__name__) from None
    if isinstance(exc, rx.ResponseError):
        message = str(exc)
        if isinstance(exc, _TRANSIENT_ERRORS) or message.split(" ", 1)[0] in _TRANSIENT_REPLIES:
            raise unavailable(what, message) from None
        raise RoomError(ErrorCode.INTERNAL_ERROR, f"redis refused {what}: {message}") from exc
    if isinstance(exc, rx.RedisError):
        raise RoomError(ErrorCode.INTERNAL_ERROR, f"redis failed {what}: {exc}") from exc


@dataclass(frozen=True, slots=True)
class Beside:
    """What a store's neighbour needs of a Redis room store: its client, key prefix and
    call timeout (the player directory, the rating book and the others share them)."""

    client: Any
    prefix: str
    timeout: float


def beside(store: object, what: str) -> Beside:
    """``store``'s client, key prefix and timeout, for ``what`` that lives beside it;
    RoomError(unavailable) naming ``what`` for a store that is not a Redis one."""
    client = getattr(store, "client", None)
    layout = getattr(store, "layout", None)
    if client is None or layout is None:
        name = getattr(store, "name", type(store).__name__)
        raise RoomError(ErrorCode.UNAVAILABLE, f"no {what} for a {name} store")
    timeout = float(getattr(getattr(store, "options", None), "timeout", 2.0))
    return Beside(client, str(layout.prefix), timeout)
