"""The player directory's contract on every backend (memory, a real Redis, a real Redis
Cluster), as ``open_backend`` builds it: identities issued with a secret that proves them,
read without it, renamed only by their holder, and forgotten a lifetime after their last use;
an unknown id and a wrong secret answered alike."""

from __future__ import annotations

import asyncio
import re

import pytest

from rooms import Backend, ErrorCode, RoomError
from rooms.backends.redis.players import RedisDirectory
from rooms.common.ids import new_player_id
from rooms.players import Credentials, Directory, MemoryDirectory, PlayerDirectory, verified
from tests.support.waiting import eventually

WAIT = 10.0  # a bound against hangs, never a measurement


def short_lived(backend: Backend, ttl: float) -> Directory:
    """A directory on ``backend``'s store whose identities live ``ttl`` seconds."""
    if isinstance(backend.players, MemoryDirectory):
        return MemoryDirectory(ttl=ttl)
    return RedisDirectory.of_store(backend.store, ttl=ttl)


async def test_an_identity_is_issued_read_and_proven_by_its_secret(backend: Backend) -> None:
    players: PlayerDirectory = backend.players
    player, secret = await players.create("Ada")
    assert re.fullmatch(r"[A-Za-z0-9_-]{16}", player.player_id)
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", secret)  # 256 random bits
    assert player.name == "Ada" and player.created == player.seen
    read = await players.get(player.player_id)
    assert read == player
    assert read.public() == {
        "player_id": player.player_id,
        "name": "Ada",
        "created": player.created,
        "bot": False,
    }
    proven = await players.verify(Credentials(player.player_id, secret))
    assert proven is not None and proven.player_id == player.player_id
    assert proven.name == "Ada" and proven.seen >= player.seen
    assert (await verified(players, Credentials(player.player_id, secret))).name == "Ada"


async def test_each_identity_has_its_own_id_and_secret(backend: Backend) -> None:
    made = await asyncio.gather(*(backend.players.create("Twin") for _ in range(20)))
    assert len({player.player_id for player, _ in made}) == 20
    assert len({secret for _, secret in made}) == 20
    first, first_secret = made[0]
    other = made[1][0]
    assert await backend.players.verify(Credentials(other.player_id, first_secret)) is None
    assert await backend.players.verify(Credentials(first.player_id, first_secret)) is not None


@pytest.mark.parametrize(
    "wrong",
    ["", "x" * 43, "not even the right shape!", "\ud800" * 3],
    ids=["empty", "same-shape", "other-shape", "surrogates"],
)
async def test_a_wrong_secret_and_an_unknown_id_are_answered_alike(
    backend: Backend, wrong: str
) -> None:
    players = backend.players
    player, secret = await players.create("Grace")
    for credentials in (
        Credentials(player.player_id, wrong),
        Credentials(new_player_id(), secret),  # the right secret, an id that is nobody's
        Credentials("not an id!", secret),
    ):
        assert await players.verify(credentials) is None
        assert await players.rename(credentials, "Mallory") is None
        with pytest.raises(RoomError) as refused:
            await verified(players, credentials)
        assert refused.value.code is ErrorCode.BAD_IDENTITY
        assert "match no identity" in refused.value.message
    assert (await players.get(player.player_id)) == player, "a refusal changed the identity"


async def test_only_the_holder_renames_and_everyone_reads_the_new_name(backend: Backend) -> None:
    players = backend.players
    player, secret = await players.create("Ada")
    renamed = await players.rename(Credentials(player.player_id, secret), "Ada Lovelace")
    assert renamed is not None and renamed.name == "Ada Lovelace"
    assert renamed.created == player.created and renamed.seen >= player.seen
    read = await players.get(player.player_id)
    assert read is not None and read.name == "Ada Lovelace" and read.created == player.created
    assert (await players.verify(Credentials(player.player_id, secret))) is not None


async def test_simultaneous_renames_leave_one_whole_record(backend: Backend) -> None:
    players = backend.players
    player, secret = await players.create("Ada")
    names = [f"Name {i}" for i in range(12)]
    results = await asyncio.gather(
        *(players.rename(Credentials(player.player_id, secret), name) for name in names)
    )
    assert all(result is not None for result in results)
    read = await players.get(player.player_id)
    assert read is not None and read.name in names and read.created == player.created


async def test_unknown_and_malformed_ids_read_as_nobody(backend: Backend) -> None:
    for player_id in (new_player_id(), "", "short", "../../etc/passwd", "x" * 200, "{slot}"):
        assert await backend.players.get(player_id) is None


async def test_an_identity_is_forgotten_a_lifetime_after_its_last_use(backend: Backend) -> None:
    players = short_lived(backend, ttl=1.5)
    player, secret = await players.create("Brief")
    credentials = Credentials(player.player_id, secret)
    for _ in range(3):  # each use gives it its lifetime again: it outlives the first one
        await asyncio.sleep(0.6)
        assert await players.verify(credentials) is not None
    assert await players.get(player.player_id) is not None

    async def gone() -> bool:
        return await players.get(player.player_id) is None

    await eventually(gone, "the identity expired", timeout=WAIT)
    assert await players.verify(credentials) is None
    assert await players.rename(credentials, "Back") is None
    assert await players.get(player.player_id) is None, "a rename brought an expired id back"


async def test_an_update_is_a_compare_and_set_on_the_record_read(backend: Backend) -> None:
    """The storage primitive behind verify and rename: it writes only the record whose
    secret hash it is given (the one just checked), never a missing or another one."""
    players = short_lived(backend, ttl=3600.0)
    player, _ = await players.create("Ada")
    assert not await players._update(player.player_id, "0" * 64, 1.0, "Mallory")
    assert (await players.get(player.player_id)) == player
    nobody = new_player_id()
    assert not await players._update(nobody, "0" * 64, 1.0, "Ghost")
    assert await players.get(nobody) is None, "an update made a record out of nothing"
