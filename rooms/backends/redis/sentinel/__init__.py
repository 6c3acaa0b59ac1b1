"""The Redis Sentinel backend (``redis+sentinel://``): one primary found through Sentinel.

The single-Redis store, bus, presence registry and quick-play queue run unchanged on clients
whose connections ask Sentinel for the current primary each time they connect (``client``);
``watch`` notices a failover and moves every connection to the new primary.
"""

from __future__ import annotations

from rooms.backends.redis.sentinel.pair import sentinel_backend
from rooms.backends.redis.sentinel.url import SENTINEL_SCHEMES, SentinelURL, parse_sentinel_url

__all__ = ["SENTINEL_SCHEMES", "SentinelURL", "parse_sentinel_url", "sentinel_backend"]
