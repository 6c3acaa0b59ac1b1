"""Bot accounts and the bots' desk on every backend (memory, a real Redis, a real Redis
Cluster), as ``open_backend`` builds them: a bot is declared when made, its token proves it
until rotated or revoked (and only it: a person's identity has no token), every check reads
the store; the desk's ``take`` is one atomic read-and-delete, its entries are bounded, the
online marks expire and the day counts add up."""

from __future__ import annotations

import asyncio

import pytest

from rooms import Backend, ErrorCode, RoomError
from rooms.bots import authenticate, authorize_owner, create_bot, issue_token, revoke_token
from rooms.bots.desk import MAX_ENTRIES
from rooms.bots.tokens import bot_of_token


async def test_a_bot_is_proven_by_its_current_token_only(backend: Backend) -> None:
    players = backend.players
    bot, secret, token = await create_bot(players, "Robo")
    assert bot.bot and bot_of_token(token) == bot.player_id
    assert (await players.get(bot.player_id)) == bot  # read back: still a bot
    proven = await authenticate(players, token)
    assert proven is not None and proven.player_id == bot.player_id and proven.bot
    assert (await authorize_owner(players, bot.player_id, secret)).player_id == bot.player_id
    assert (await authorize_owner(players, bot.player_id, token)).player_id == bot.player_id
    rotated = await issue_token(players, bot.player_id)
    assert rotated != token
    assert await authenticate(players, token) is None  # rotated away, at once
    assert (await authenticate(players, rotated)) is not None
    await revoke_token(players, bot.player_id)
    assert await authenticate(players, rotated) is None  # revoked: none works
    assert (await authorize_owner(players, bot.player_id, secret)).player_id == bot.player_id
    for wrong in ("", "tb1.x", token + "x", f"tb1.{bot.player_id}.{'A' * 43}"):
        assert await authenticate(players, wrong) is None
    person, person_secret = await players.create("Ada")
    assert await players.bot_token_hash(person.player_id) is None
    assert not await players.set_bot_token(person.player_id, "h")  # a person has no token
    with pytest.raises(RoomError) as caught:
        await authorize_owner(players, person.player_id, person_secret)
    assert caught.value.code is ErrorCode.BAD_IDENTITY
    with pytest.raises(RoomError) as caught:
        await issue_token(players, person.player_id)
    assert caught.value.code is ErrorCode.PLAYER_NOT_FOUND


async def test_the_desk_takes_once_bounds_entries_and_counts(backend: Backend) -> None:
    desk = backend.bot_desk
    bot_id = (await create_bot(backend.players, "Robo"))[0].player_id
    await desk.put(bot_id, "c:one", "first")
    taken = await asyncio.gather(*(desk.take(bot_id, "c:one") for _ in range(8)))
    assert taken.count("first") == 1 and taken.count(None) == 7  # exactly one answer wins
    for index in range(MAX_ENTRIES):
        await desk.put(bot_id, f"s:{index}", "x")
    await desk.put(bot_id, "s:0", "again")  # an entry there already: replaced, not refused
    with pytest.raises(RoomError) as caught:
        await desk.put(bot_id, "c:too-many", "y")
    assert caught.value.code is ErrorCode.BUSY
    assert (await desk.entries(bot_id))["s:0"] == "again"
    assert await desk.count_day(bot_id, "2026-12-07", 1) == 1
    assert await desk.count_day(bot_id, "2026-12-07", 1) == 2
    assert await desk.count_day(bot_id, "2026-12-07", 0) == 2
    assert await desk.count_day(bot_id, "2026-12-08", 0) == 0
    await desk.set_online(bot_id, 100.0)
    assert await desk.is_online(bot_id, 50.0) and bot_id in await desk.online(50.0, 10)
    assert not await desk.is_online(bot_id, 150.0) and bot_id not in await desk.online(150.0, 10)
    await desk.set_online(bot_id, 200.0)
    await desk.set_offline(bot_id)
    assert not await desk.is_online(bot_id, 50.0)
