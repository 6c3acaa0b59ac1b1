"""Bot tokens on a real server: rotated and revoked tokens are refused at once (a hello, a
join, a move of a seat already taken, the open bot socket), the owner's secret manages the
token but never plays, and token checks are rate-limited per bot."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from server.bot_api.gate import AUTH_BURST
from tests.support.bots import bot_socket, challenge, make_bot, play_as_bot
from tests.support.live_server import LiveServer
from tests.support.ws_client import Client

JSON = {"Content-Type": "application/json"}


async def token_call(server: LiveServer, method: str, bot_id: str, bearer: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.url) as http:
        return await http.request(
            method,
            f"/api/bots/{bot_id}/token",
            headers={**JSON, "Authorization": f"Bearer {bearer}"},
        )


async def seated_game(
    server: LiveServer, connect: Callable[..., Any], bot: dict[str, Any]
) -> tuple[Client, Client, Client]:
    """A person's challenge accepted by the bot: (its socket, the person, the bot's room
    connection), both seated, the game on."""
    control = await bot_socket(server, bot["token"])
    offer = (await challenge(server, bot["player_id"], {"name": "Ada"})).json()
    person = await connect(server, offer["room_id"])
    await person.join(token=offer["token"])
    told = await control.until("challenge", room_id=offer["room_id"])
    assert (await control.reply({"type": "accept", "challenge_id": told["challenge_id"]}))[
        "type"
    ] == "ack"
    robot = await play_as_bot(server, offer["room_id"], bot["token"])
    await person.seen(robot.version)
    return control, person, robot


async def test_a_revoked_token_is_refused_at_once_everywhere_it_is_open(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    bot = await make_bot(server)
    control, person, robot = await seated_game(server, connect, bot)
    assert (await person.move(1, 1))["type"] == "move_ok"
    await robot.seen(person.version)

    revoked = await token_call(server, "DELETE", bot["player_id"], bot["secret"])
    assert revoked.status_code == 204
    refused = await robot.move(0, 0)  # the very next move: nothing played, socket closed
    assert refused["type"] == "error" and refused["code"] == "bad_identity"
    assert await robot.wait_closed() == 4401
    assert await control.wait_closed() == 4401  # the bot socket at its next look
    again = await bot_socket(server)
    answer = await again.reply({"type": "hello", "token": bot["token"]})
    assert answer["code"] == "bad_identity" and await again.wait_closed() == 4401
    snapshot = (await person.reply({"type": "sync"}))["state"]
    assert snapshot["ply"] == 1  # the refused move never landed

    # the owner rotates with the secret: the new token plays, the old one stays refused
    rotated = await token_call(server, "POST", bot["player_id"], bot["secret"])
    assert rotated.status_code == 200
    fresh = rotated.json()["token"]
    assert fresh != bot["token"] and fresh.startswith(f"tb1.{bot['player_id']}.")
    back = await Client.open(server, person.welcome["room_id"] if person.welcome else "")
    welcome = await back.join(bot_token=fresh)
    assert welcome["type"] == "welcome" and welcome["mark"] == "O" and welcome["token"] is None
    assert (await back.move(0, 0))["type"] == "move_ok"
    stale = await Client.open(server, person.welcome["room_id"] if person.welcome else "")
    assert (await stale.join(bot_token=bot["token"]))["code"] == "bad_identity"
    for client in (back, stale):
        await client.close()


async def test_the_token_rotates_itself_and_a_wrong_bearer_gets_one_401(server: LiveServer) -> None:
    bot = await make_bot(server)
    rotated = await token_call(server, "POST", bot["player_id"], bot["token"])  # by the bot
    assert rotated.status_code == 200
    for wrong in (bot["token"], "nonsense", "tb1.x.y"):
        answer = await token_call(server, "POST", bot["player_id"], wrong)
        assert answer.status_code == 401 and answer.json()["code"] == "bad_identity"
        assert answer.headers["www-authenticate"] == 'Bearer realm="bots"'
    person = (
        await httpx.AsyncClient(base_url=server.url).post("/api/players", json={"name": "Ada"})
    ).json()
    not_a_bot = await token_call(server, "POST", person["player_id"], person["secret"])
    assert not_a_bot.status_code == 401  # a person's identity has no bot token


async def test_a_bots_secret_never_seats_it_and_rooms_without_bots_refuse_it(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    bot = await make_bot(server)
    room_id = await server.create_room()
    client = await connect(server, room_id)
    by_secret = await client.join(player={"id": bot["player_id"], "secret": bot["secret"]})
    assert by_secret["code"] == "bot_token_required"
    assert (await client.join(bot_token=bot["token"]))["code"] == "bots_not_allowed"
    open_room = await server.create_room(bots=True)
    robot = await connect(server, open_room)
    welcome = await robot.join(bot_token=bot["token"])
    assert welcome["type"] == "welcome" and welcome["token"] is None
    assert welcome["state"]["players"][0]["bot_account"] is True
    assert welcome["state"]["settings"]["bots"] is True


async def test_token_checks_are_rate_limited_per_bot(
    make_server: Callable[..., LiveServer],
) -> None:
    server = make_server(bot_auth_rate=0.01)  # a burst of 10, then one check in 100 s
    bot, other = await make_bot(server), await make_bot(server, "Other")
    token = bot["token"]
    for _ in range(AUTH_BURST):  # rotations by the owner count as token checks too
        rotated = await token_call(server, "POST", bot["player_id"], bot["secret"])
        assert rotated.status_code == 200
        token = rotated.json()["token"]
    socket = await bot_socket(server)
    refused = await socket.reply({"type": "hello", "token": token})
    assert refused["code"] == "rate_limited" and refused["retry_after"] > 0
    assert not socket.done  # a refusal to wait, not a close
    too_fast = await token_call(server, "POST", bot["player_id"], bot["secret"])
    assert too_fast.status_code == 429 and too_fast.json()["code"] == "rate_limited"
    assert "retry-after" in too_fast.headers
    await socket.close()
    await (await bot_socket(server, other["token"])).close()  # another bot: its own bucket
