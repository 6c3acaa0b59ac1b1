"""The player directory in Redis beyond the contract: what a record holds (the secret only as
its hash), its key and slot, its lifetime, how it reaches each kind of Redis URL, and a Redis
that does not answer."""

from __future__ import annotations

import hashlib
import time

import pytest
import redis
from redis.crc import key_slot

from rooms import ErrorCode, RoomError, open_backend
from rooms.backends.redis.keys import KeyLayout
from rooms.backends.redis.players import RedisDirectory
from rooms.common.ids import new_player_id
from rooms.players import PLAYER_TTL, Credentials
from tests.support.redis_server import RedisServer, free_port

pytestmark = pytest.mark.redis


def with_prefix(url: str, prefix: str) -> str:
    return f"{url}{'&' if '?' in url else '?'}prefix={prefix}"


async def test_a_record_holds_the_secrets_hash_never_the_secret(redis_server: RedisServer) -> None:
    backend = open_backend(with_prefix(redis_server.url, "pl1"))
    await backend.open()
    try:
        player, secret = await backend.players.create("Ada")
    finally:
        await backend.close()
    raw = redis.Redis.from_url(redis_server.url, decode_responses=True)
    try:
        key = f"pl1:player:{{{player.player_id}}}"
        fields = raw.hgetall(key)
        ttl_ms = raw.pttl(key)
    finally:
        raw.close()
    assert set(fields) == {"h", "n", "c", "s"}
    assert fields["h"] == hashlib.sha256(secret.encode()).hexdigest()
    assert all(secret not in value for value in fields.values())
    assert fields["n"] == "Ada" and float(fields["c"]) == player.created
    assert PLAYER_TTL * 1000 - 60_000 < ttl_ms <= PLAYER_TTL * 1000  # about 400 days


async def test_a_use_gives_the_record_its_lifetime_again(redis_server: RedisServer) -> None:
    backend = open_backend(with_prefix(redis_server.url, "pl2"))
    await backend.open()
    raw = redis.Redis.from_url(redis_server.url, decode_responses=True)
    try:
        player, secret = await backend.players.create("Ada")
        key = f"pl2:player:{{{player.player_id}}}"
        raw.pexpire(key, 5_000)  # as if it had not been used for nearly 400 days
        await backend.players.get(player.player_id)  # reading is not a use
        assert raw.pttl(key) <= 5_000
        before = time.time()
        assert await backend.players.verify(Credentials(player.player_id, secret)) is not None
        assert raw.pttl(key) > PLAYER_TTL * 1000 - 60_000
        assert float(raw.hget(key, "s") or 0) >= before
    finally:
        raw.close()
        await backend.close()


def test_each_identity_is_one_key_with_its_own_hash_tag() -> None:
    layout_key = KeyLayout("ttt").player("AbC-_0123456789x")
    assert layout_key == "ttt:player:{AbC-_0123456789x}"
    assert key_slot(layout_key.encode()) == key_slot(b"AbC-_0123456789x")


@pytest.mark.parametrize(
    "url",
    [
        "redis://127.0.0.1:6379/0",
        "redis+cluster://127.0.0.1:7000,127.0.0.1:7001",
        "redis+sentinel://127.0.0.1:26379/ttt-primary/0",
    ],
    ids=["redis", "cluster", "sentinel"],
)
def test_every_redis_url_gets_a_directory_on_the_stores_own_client(url: str) -> None:
    """As the quick-play queue: the same connections, the same primary (Sentinel) or slot
    routing (Cluster), the same key prefix; nothing connects before open."""
    backend = open_backend(with_prefix(url, "mine"))
    assert isinstance(backend.players, RedisDirectory)
    assert backend.players._client is backend.store.client  # type: ignore[attr-defined]
    assert backend.players._layout.prefix == "mine"


async def test_a_redis_that_does_not_answer_is_unavailable_not_nobody() -> None:
    backend = open_backend(f"redis://127.0.0.1:{free_port()}/0")
    try:
        for call in (
            backend.players.get(new_player_id()),
            backend.players.create("Ada"),
            backend.players.verify(Credentials(new_player_id(), "s" * 43)),
        ):
            with pytest.raises(RoomError) as down:
                await call
            assert down.value.code is ErrorCode.UNAVAILABLE
    finally:
        await backend.close()
