"""The memory directory beyond the contract: its bound, and expiry on its own clock."""

from __future__ import annotations

import pytest

from rooms import ErrorCode, RoomError
from rooms.players import Credentials, MemoryDirectory


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def test_a_full_directory_refuses_new_identities_until_some_expire() -> None:
    clock = Clock()
    players = MemoryDirectory(ttl=100.0, max_players=3, clock=clock)
    made = [await players.create(f"P{i}") for i in range(3)]
    with pytest.raises(RoomError) as full:
        await players.create("One too many")
    assert (
        full.value.code is ErrorCode.UNAVAILABLE and "most player identities" in full.value.message
    )
    clock.now += 60.0
    first, secret = made[0]
    assert await players.verify(Credentials(first.player_id, secret)) is not None  # kept alive
    clock.now += 50.0  # the other two are past their lifetime, the first is not
    newcomer, _ = await players.create("Newcomer")
    assert len(players) == 2
    assert await players.get(first.player_id) is not None
    assert await players.get(newcomer.player_id) is not None
    assert await players.get(made[1][0].player_id) is None


async def test_times_are_the_directorys_clock() -> None:
    clock = Clock()
    players = MemoryDirectory(clock=clock)
    player, secret = await players.create("Ada")
    assert player.created == player.seen == 1000.0
    clock.now = 1234.5
    used = await players.rename(Credentials(player.player_id, secret), "Ada L")
    assert used is not None and (used.created, used.seen, used.name) == (1000.0, 1234.5, "Ada L")


@pytest.mark.parametrize("ttl", [0, -1.0, True, "400d"])
def test_a_lifetime_must_be_seconds_above_zero(ttl: object) -> None:
    with pytest.raises(ValueError, match="ttl must be"):
        MemoryDirectory(ttl=ttl)  # type: ignore[arg-type]
