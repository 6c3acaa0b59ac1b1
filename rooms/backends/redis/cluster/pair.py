"""The Redis Cluster store and bus for a ``redis+cluster://`` (``rediss+cluster://``) URL.

``redis+cluster://[user:password@]host:port[,host:port...][?prefix=NAME&...]`` names one or more
seed nodes; the client learns the rest of the cluster from any seed that answers and follows it
through failovers and resharding. ``prefix`` is our key prefix (as for ``redis://``), every
other query parameter redis-py's; a database number is refused (a cluster has only database 0).
The single-Redis store and bus code runs with three differences (the ``store`` and ``bus``
modules beside this one): SPUBLISH on the shard of the room's slot, SSUBSCRIBE on one pub/sub
connection per shard, and an epoch per hash slot. rooms.backends.open imports this module only
for a cluster URL.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.connection import SSLConnection, parse_url
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff

from rooms.backends.redis.cluster.bus import RedisClusterBus
from rooms.backends.redis.cluster.store import RedisClusterStore
from rooms.backends.redis.connect import RedisOptions, host_port
from rooms.backends.redis.keys import DEFAULT_PREFIX
from rooms.backends.redis.store import DAY
from rooms.errors import UnsupportedBackend

__all__ = [
    "CLUSTER_SCHEMES",
    "ClusterURL",
    "cluster_pair",
    "make_cluster_client",
    "parse_cluster_url",
]

CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}
"""Our cluster schemes and the plain Redis scheme each one speaks to every node."""


@dataclass(frozen=True, slots=True)
class ClusterURL:
    seeds: tuple[tuple[str, int], ...]
    prefix: str = DEFAULT_PREFIX
    kwargs: dict[str, Any] = field(default_factory=dict)
    """redis-py client keywords from the URL: credentials, TLS and query parameters."""


def parse_cluster_url(url: str) -> ClusterURL:
    """The seeds, key prefix and client keywords of a cluster URL (UnsupportedBackend if
    it is not one we can use)."""
    parts = urlsplit(url)
    plain = CLUSTER_SCHEMES.get(parts.scheme.lower())
    if plain is None:
        raise UnsupportedBackend(f"not a Redis Cluster URL: {parts.scheme or url!r:.80}")
    userinfo, _, hosts = parts.netloc.rpartition("@")
    seeds = tuple(host_port(item, "a cluster seed") for item in hosts.split(",") if item.strip())
    if not seeds:
        raise UnsupportedBackend("a Redis Cluster URL needs at least one host:port")
    if parts.path.strip("/") not in {"", "0"}:
        raise UnsupportedBackend(
            f"a Redis Cluster has only database 0, not {parts.path.strip('/')!r:.20}"
        )
    query = parse_qsl(parts.query, keep_blank_values=True)
    prefixes = [value for key, value in query if key == "prefix"]
    rest = urlencode([(key, value) for key, value in query if key != "prefix"])
    # redis-py reads credentials, TLS and typed query parameters from a one-host URL.
    login = f"{userinfo}@" if userinfo else ""
    host, port = seeds[0]
    shown = f"[{host}]" if ":" in host else host
    try:
        kwargs: dict[str, Any] = dict(parse_url(f"{plain}://{login}{shown}:{port}/0?{rest}"))
    except (ValueError, TypeError) as exc:
        raise UnsupportedBackend(f"bad Redis Cluster URL: {exc}") from None
    for key in ("host", "port", "db", "path"):
        kwargs.pop(key, None)
    if kwargs.pop("connection_class", None) is SSLConnection:
        kwargs["ssl"] = True
    return ClusterURL(seeds, prefixes[-1] if prefixes else DEFAULT_PREFIX, kwargs)


def make_cluster_client(parsed: ClusterURL, options: RedisOptions) -> RedisCluster:
    """A cluster client that decodes replies to str (it learns the topology on first use
    or ``initialize()``; nothing connects here)."""
    try:
        return RedisCluster(
            startup_nodes=[ClusterNode(host, port) for host, port in parsed.seeds],
            decode_responses=True,
            socket_timeout=options.socket_timeout,
            socket_connect_timeout=options.connect_timeout,
            retry=Retry(ExponentialBackoff(cap=0.2, base=0.02), options.retries),
            health_check_interval=0,
            **parsed.kwargs,
        )
    except (ValueError, TypeError) as exc:
        raise UnsupportedBackend(f"bad Redis Cluster URL: {exc}") from None


def cluster_pair(
    url: str,
    *,
    log_size: int = 256,
    room_ttl: float = DAY,
    finished_ttl: float = DAY,
    options: RedisOptions | None = None,
) -> tuple[RedisClusterStore, RedisClusterBus]:
    """A store and a bus on the cluster of ``url`` (not opened), each with its own client
    (its own connection pools), as for one Redis."""
    parsed = parse_cluster_url(url)
    options = options or RedisOptions()
    store = RedisClusterStore(
        make_cluster_client(parsed, options),
        prefix=parsed.prefix,
        options=options,
        log_size=log_size,
        room_ttl=room_ttl,
        finished_ttl=finished_ttl,
    )
    bus = RedisClusterBus(
        make_cluster_client(parsed, options),
        prefix=parsed.prefix,
        options=options,
        own_client=True,
    )
    return store, bus
