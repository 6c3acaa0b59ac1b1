"""The guess book in Redis beyond the contract: a tally is one field of the ply's hash, which
expires by itself, and an entry that is not a worker's tally counts nothing."""

from __future__ import annotations

import pytest
import redis

from rooms import open_backend
from rooms.backends.redis.guesses import RedisGuessBook
from rooms.guesses import ply_key
from rooms.guesses.book import GUESS_TTL
from tests.support.redis_server import RedisServer

pytestmark = pytest.mark.redis


async def test_a_tally_is_one_field_and_a_damaged_one_counts_nothing(
    redis_server: RedisServer,
) -> None:
    backend = open_backend(f"{redis_server.url}?prefix=gb1")
    await backend.open()
    raw = redis.Redis.from_url(redis_server.url, decode_responses=True)
    try:
        book = RedisGuessBook.of_store(backend.store)
        key = ply_key(3, 4)
        await book.tally("roomA", key, "w1", {"0,0,0": 2, "1,2,0": 1})
        name = f"gb1:{{roomA}}:guess:{key}"
        assert raw.hkeys(name) == ["w1"]
        assert GUESS_TTL * 1000 - 60_000 < raw.pttl(name) <= GUESS_TTL * 1000
        raw.hset(name, mapping={"w2": "not json", "w3": '{"1,2,0": "x", "2,2,0": 0}', "w4": "[1]"})
        assert await book.split("roomA", key) == {"0,0,0": 2, "1,2,0": 1}
    finally:
        raw.close()
        await backend.close()
