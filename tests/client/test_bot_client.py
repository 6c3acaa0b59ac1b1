"""client.bot against a real server on a real port (docs/protocol.md, "Bots"): a bot account
made over HTTP hears a person's challenge, accepts it and plays the game out through
``run_bot``; a challenge told again on a new connection is handed over once; a revoked token
is refused at once, on the open socket and on a new one."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from client import Refused, Seat
from client.aio import AsyncRoomClient
from client.bot import BotAccount, BotClient, challenge_bot, create_bot, run_bot
from client.http import request_json
from client.wire import Message
from tests.support.live_server import LiveServer
from tests.support.waiting import eventually
from tests.support.ws_client import WAIT


async def play_first_free_cells(client: AsyncRoomClient) -> None:
    """Play the first free cell on each turn until the game is over."""
    while True:
        await client.until(lambda: client.my_turn or client.room.status == "finished")
        if client.room.status == "finished":
            return
        taken = {(m["row"], m["col"]) for m in client.room.moves}
        row, col = next((r, c) for r in range(3) for c in range(3) if (r, c) not in taken)
        ok = await client.move(row, col)
        await client.seen(ok["version"])  # the mirror has the move: the turn has passed


@pytest.fixture
async def closing() -> AsyncIterator[list[AsyncRoomClient | BotClient]]:
    opened: list[AsyncRoomClient | BotClient] = []
    yield opened
    for client in opened:
        await client.close()


async def online_bot(
    server: LiveServer, name: str, closing: list[AsyncRoomClient | BotClient]
) -> tuple[BotAccount, BotClient]:
    """A new bot account, its socket open (closed after the test)."""
    account = await asyncio.to_thread(create_bot, server.url, name)
    bot = BotClient(server.url, account.token)
    closing.append(bot)
    await bot.connect()
    return account, bot


async def test_a_bot_accepts_a_challenge_and_plays_the_game_out(
    server: LiveServer, closing: list[AsyncRoomClient | BotClient]
) -> None:
    account, bot = await online_bot(server, "Robo", closing)
    assert account.token.startswith("tb1.") and "tb1." not in repr(account)
    assert bot.welcome is not None and bot.welcome["bot"]["player_id"] == account.player_id
    played: list[Message] = []

    async def play(room: AsyncRoomClient, seat: Message) -> None:
        assert room.mark == seat["mark"] == "O" and room.token is None
        await play_first_free_cells(room)
        played.append(room.room.outcome or {})

    runner = asyncio.create_task(run_bot(bot, play))
    try:
        offer = await asyncio.to_thread(
            challenge_bot, server.url, account.player_id, {"name": "Ada"}
        )
        person = AsyncRoomClient(
            server.ws_url(offer["room_id"]), Seat("player", "Ada", token=offer["token"])
        )
        closing.append(person)
        assert (await person.join())["mark"] == "X"
        async with asyncio.timeout(WAIT):
            await play_first_free_cells(person)
            await eventually(lambda: bool(played), "the bot's game over")
    finally:
        runner.cancel()
        await asyncio.gather(runner, return_exceptions=True)
    assert person.room.outcome is not None and person.room.outcome["winner"] == "X"
    assert played == [person.room.outcome]
    players = person.room.players
    assert [p["bot_account"] for p in players] == [False, True] and players[1]["name"] == "Robo"


async def test_a_challenge_told_again_after_a_reconnect_is_handed_over_once(
    server: LiveServer, closing: list[AsyncRoomClient | BotClient]
) -> None:
    account, bot = await online_bot(server, "Again", closing)
    offer = await asyncio.to_thread(challenge_bot, server.url, account.player_id)
    challenge = await bot.next()
    assert challenge["type"] == "challenge" and challenge["challenge_id"] == offer["challenge_id"]
    assert bot.line is not None
    bot.line.abort()  # the network drops
    await bot.connect()

    def told_twice() -> bool:
        return sum(1 for line in bot.trail if line.startswith("< challenge ")) == 2

    await eventually(told_twice, "the challenge told again on the new connection")
    assert (await bot.accept(offer["challenge_id"])) is not None
    seat = await bot.next()  # not the challenge again
    assert seat["type"] == "seat" and seat["room_id"] == offer["room_id"]
    assert bot.reconnects == 1


async def test_a_revoked_token_is_refused_at_once(
    server: LiveServer, closing: list[AsyncRoomClient | BotClient]
) -> None:
    account, bot = await online_bot(server, "Gone", closing)
    path = f"/api/bots/{account.player_id}/token"
    await asyncio.to_thread(request_json, server.url, "DELETE", path, bearer=account.secret)
    with pytest.raises(Refused) as on_the_open_socket:
        await asyncio.wait_for(bot.next(), WAIT)
    assert on_the_open_socket.value.code == "bad_identity"
    with pytest.raises(Refused) as on_a_new_one:
        await BotClient(server.url, account.token).connect()
    assert on_a_new_one.value.code == "bad_identity"
    room = AsyncRoomClient(server.ws_url("anyroom"), Seat("player", bot_token=account.token))
    closing.append(room)
    assert room.seat.join_message() == {
        "type": "join", "as": "player", "bot_token": account.token,
    }  # fmt: skip
