"""The ``redis+sentinel://`` backend against a real Sentinel, a primary and its replica.

A game keeps going across ``SENTINEL FAILOVER``: commands during the switch get the typed
``unavailable`` error, a retry then works, and every acknowledged move is there once. The
workers follow the new primary as soon as Sentinel names it, before the old one is demoted,
with and without auto-pipelining; and a move the old primary acknowledged but never
replicated is gone afterwards, the room silently older (not reported lost).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Callable

import pytest

from core import MoveRequest, Rules
from rooms import ErrorCode, Role, RoomError, RoomService, UnsupportedBackend, open_backend
from rooms.backends import Backend, BackendOptions
from rooms.backends.redis.keys import KeyLayout
from rooms.backends.redis.sentinel import parse_sentinel_url
from rooms.backends.redis.sentinel.pair import SentinelBus
from rooms.backends.redis.store import RedisStore
from rooms.room import Join, PlayMove
from tests.support.redis_sentinel import SERVICE, LocalSentinel, command
from tests.support.waiting import eventually, retrying

BOUND = 40.0  # a safety net against hangs (a failover takes ~2 s here), never a measurement

X_WINS = [(0, 0), (1, 0), (1, 1), (2, 0), (2, 2)]  # X takes the diagonal on the fifth move


def unavailable(exc: Exception) -> bool:
    return isinstance(exc, RoomError) and exc.code is ErrorCode.UNAVAILABLE


# -- URLs (no process) --------------------------------------------------------------------


def test_sentinel_urls_name_sentinels_service_db_prefix_and_credentials() -> None:
    parsed = parse_sentinel_url(
        "redis+sentinel://user:secret@10.0.0.1:26379,[::1]:26380/games/3"
        "?prefix=p1&sentinel_password=s3&socket_keepalive=true"
    )
    assert parsed.sentinels == (("10.0.0.1", 26379), ("::1", 26380))
    assert (parsed.service, parsed.db, parsed.prefix, parsed.tls) == ("games", 3, "p1", False)
    assert parsed.kwargs["username"] == "user" and parsed.kwargs["password"] == "secret"
    assert parsed.sentinel_kwargs == {"password": "s3"}
    assert parse_sentinel_url("rediss+sentinel://h:1/svc").tls
    assert parse_sentinel_url("redis+sentinel://h:1/svc").db == 0


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("redis+sentinel://h:1", "service_name"),
        ("redis+sentinel://h:1/", "service_name"),
        ("redis+sentinel://h:1/svc/x", "database must be a number"),
        ("redis+sentinel://h:1/svc/0/more", "service_name"),
        ("redis+sentinel://h/svc", "host:port"),
        ("redis+sentinel:///svc", "at least one host:port"),
    ],
)
def test_bad_sentinel_urls_are_refused_clearly(url: str, message: str) -> None:
    with pytest.raises(UnsupportedBackend, match=message):
        open_backend(url)


def test_open_backend_chooses_sentinel_by_scheme() -> None:
    backend = open_backend("redis+sentinel://127.0.0.1:1/svc/0?prefix=q")
    assert isinstance(backend.store, RedisStore) and isinstance(backend.bus, SentinelBus)
    assert backend.shared and backend.store.layout.prefix == "q"


# -- against a real Sentinel --------------------------------------------------------------


@contextlib.asynccontextmanager
async def opened(url: str, *, auto_pipeline: bool = True) -> AsyncIterator[Backend]:
    backend = open_backend(url, BackendOptions(auto_pipeline=auto_pipeline))
    await backend.open()
    try:
        yield backend
    finally:
        await backend.close()


async def start_game(service: RoomService) -> str:
    room = await service.create(Rules(), public=False)
    await service.execute(room.room_id, Join("x", Role.PLAYER, "X"))
    await service.execute(room.room_id, Join("o", Role.PLAYER, "O"))
    return room.room_id


async def play(service: RoomService, room_id: str, turn: int) -> None:
    """Move ``turn`` of X_WINS, against the version the room has now."""
    row, col = X_WINS[turn]
    version = (await service.load(room_id)).version
    conn = ("x", "o")[turn % 2]
    await service.execute(
        room_id, PlayMove(conn, MoveRequest(row=row, col=col), version, f"m{turn}")
    )


def carries(messages: list[str], version: int) -> bool:
    """Whether a bus message (framed, or an event redelivered after a reconnect) carries
    the event of ``version``."""
    return any(f'"version":{version},' in m or f'"version":{version}}}' in m for m in messages)


@pytest.mark.parametrize("auto_pipeline", [True, False], ids=["auto-pipeline", "plain"])
async def test_a_game_keeps_going_across_a_failover(
    start_redis_sentinel: Callable[..., LocalSentinel], auto_pipeline: bool
) -> None:
    """min-replicas-to-write 1 with one replica: after the promotion neither node takes a
    write until the old primary follows the new one, so the switch answers ``unavailable``
    and nothing acknowledged is lost."""
    sentinel = start_redis_sentinel(min_replicas=1)
    async with opened(sentinel.url, auto_pipeline=auto_pipeline) as backend:
        service = RoomService(backend.store)
        room_id = await start_game(service)
        subscription = await backend.bus.subscribe(room_id)
        heard: list[str] = []
        subscription.listen(heard.append)
        for turn in range(2):
            await play(service, room_id, turn)
        old, new = sentinel.failover()
        refused: list[Exception] = []

        def transient(exc: Exception) -> bool:
            if unavailable(exc):
                refused.append(exc)
                return True
            return False

        for turn in range(2, len(X_WINS)):
            await retrying(
                lambda turn=turn: play(service, room_id, turn),  # type: ignore[misc]
                f"move {turn} after the failover",
                transient=transient,
                timeout=BOUND,
            )
        assert refused, "the switch should have refused a command with unavailable"
        assert all("retry" in str(exc) for exc in refused)
        assert isinstance(backend.bus, SentinelBus) and backend.bus.watch.switches == 1

        # Every move once, in order, on the new primary; a fresh worker reads the same.
        fresh = RoomService(backend.store)
        room = await fresh.load(room_id)
        assert room.game.ply == len(X_WINS) and room.game.outcome is not None
        assert [(m.row, m.col) for m in room.game.history] == X_WINS
        with contextlib.closing(new.client()) as client:
            keys = KeyLayout("ttt").room(room_id)
            assert int(command(client, "HGET", keys.room, "v")) == room.version
        # The bus followed too: the last event reached the subscriber on the new primary.
        await eventually(lambda: carries(heard, room.version), "the last event heard")
        await subscription.close()
    assert old.role() in {"master", "slave"}  # still running: only roles changed


@pytest.mark.parametrize("auto_pipeline", [True, False], ids=["auto-pipeline", "plain"])
async def test_workers_follow_before_the_old_primary_is_demoted_and_unreplicated_moves_are_lost(
    start_redis_sentinel: Callable[..., LocalSentinel], auto_pipeline: bool
) -> None:
    """Without min-replicas-to-write: a worker moves to the new primary as soon as Sentinel
    names it, while the old one still takes writes; a move acknowledged by the old primary
    after the promotion (a worker still on it, stood in for by a plain redis:// store) is
    gone once it is demoted, and the room is silently older, not reported lost."""
    sentinel = start_redis_sentinel(min_replicas=0)
    async with opened(sentinel.url, auto_pipeline=auto_pipeline) as backend:
        assert isinstance(backend.bus, SentinelBus)
        watch = backend.bus.watch
        service = RoomService(backend.store)
        room_id = await start_game(service)
        await play(service, room_id, 0)
        old, new = sentinel.failover()
        await eventually(lambda: watch.switches == 1, "the worker following the new primary")

        # A worker still on the old primary: its move is acknowledged there, never replicated.
        # That write landing shows the old primary not yet demoted (a replica refuses
        # writes) while the following worker had switched already: it did not wait for the
        # demotion. (Asked after the next move instead, the role raced Sentinel's
        # reconfiguration of the old primary, which a slow retry can lose.)
        stale = open_backend(old.url)
        await stale.open()
        try:
            behind = RoomService(stale.store)
            version = (await behind.load(room_id)).version
            await behind.execute(room_id, PlayMove("o", MoveRequest(row=2, col=2), version, "gone"))
        finally:
            await stale.close()
        assert watch.switches == 1

        # The following worker already writes to the new primary.
        await retrying(
            lambda: play(service, room_id, 1), "move 1", transient=unavailable, timeout=BOUND
        )
        keys = KeyLayout("ttt").room(room_id)
        expected = (await service.load(room_id)).version
        with contextlib.closing(new.client()) as client:
            assert int(command(client, "HGET", keys.room, "v")) == expected

        sentinel.wait_demoted(old)
        room = await RoomService(backend.store).load(room_id)  # a fresh worker's view
        assert [(m.row, m.col) for m in room.game.history] == X_WINS[:2]  # (2, 2) is gone
        # Not reported lost: the dataset's epoch was replicated, so the room reads as it is.
        assert backend.store.losses == 0  # type: ignore[attr-defined]
        await retrying(
            lambda: play(service, room_id, 2), "move 2", transient=unavailable, timeout=BOUND
        )
        assert (await RoomService(backend.store).load(room_id)).game.ply == 3
    assert SERVICE in sentinel.url
