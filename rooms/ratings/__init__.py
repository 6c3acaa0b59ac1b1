"""Ratings: Glicko-2 (core.glicko2) per pool of rated rooms, applied once per game.

``pool_of`` says which pool a rated room plays in (``rooms.ratings.pools``); ``RatingBook``
keeps the ratings, histories and leaderboards (``MemoryBook``;
``rooms.backends.redis.ratings.RedisBook``) and applies a game's result exactly once; the
``Rater`` on each worker applies the rated games it sees ended (docs/ratings.md).
"""

from __future__ import annotations

from rooms.ratings.book import DONE_TTL, HISTORY, PoolRating, RatingBook
from rooms.ratings.memory import MemoryBook
from rooms.ratings.pools import POOLS, family_of, pool_of, time_class, valid_pool

__all__ = [
    "DONE_TTL",
    "HISTORY",
    "POOLS",
    "MemoryBook",
    "PoolRating",
    "RatingBook",
    "family_of",
    "pool_of",
    "time_class",
    "valid_pool",
]
