"""A bot account in an arena (docs/tournaments.md): its owner enters it with its identity,
the arena marks it a bot and pairs it; the bot hears of its game's seat on its own socket
(as the tournament's socket says it too), joins it with its token (a bot's seat, no seat
token; its secret does not seat it) and plays it out, and the result counts."""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from tests.server.bot_api.test_spec import BOT_OUT, check
from tests.support.bots import bot_socket, make_bot, play_as_bot
from tests.support.live_server import LiveServer
from tests.support.ws_client import WAIT, Client


async def tournament_message(client: Client, match: Any) -> dict[str, Any]:
    """The first ``tournament`` message ``match`` accepts (the view is sent on every change)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        for message in client.log:
            if message["type"] == "tournament" and match(message):
                return message
        await asyncio.sleep(0.02)
    raise AssertionError(f"no such tournament message; last: {client.log[-1:]}")


async def test_a_bot_enters_an_arena_and_plays_its_game_with_its_token(
    server: LiveServer,
) -> None:
    bot = await make_bot(server, "Robo")
    owner = {"id": bot["player_id"], "secret": bot["secret"]}
    async with httpx.AsyncClient(base_url=server.url) as http:
        ada = (await http.post("/api/players", json={"name": "Ada"})).json()
        person = {"id": ada["player_id"], "secret": ada["secret"]}
        made = await http.post(
            "/api/tournaments",
            json={"player": person, "kind": "arena", "duration": 600,
                  "time_control": {"initial": 60, "first_move": 20}},
        )  # fmt: skip
        tid = made.json()["tournament_id"]
        entered = await http.post(f"/api/tournaments/{tid}/join", json={"player": owner})
        assert entered.status_code == 200, entered.text
        marked = {e["id"]: e["bot_account"] for e in entered.json()["entrants"]}
        assert marked == {ada["player_id"]: False, bot["player_id"]: True}
        started = await http.post(f"/api/tournaments/{tid}/start", json={"player": person})
        assert started.json()["status"] == "running"

    control = await bot_socket(server, bot["token"])
    follow = await Client.open(server, f"t/{tid}?player={bot['player_id']}")
    seat = await control.until("seat", tournament=tid)
    assert seat["challenge_id"] is None and seat["rated"] is False
    assert seat["opponent"] == {"name": "Ada", "player_id": ada["player_id"], "bot": False}
    room_id = seat["room_id"]
    paired = await tournament_message(follow, lambda m: m["your_game"] is not None)
    assert paired["your_game"]["room_id"] == room_id  # the tournament's socket says the same
    by_secret = await Client.open(server, room_id)
    assert (await by_secret.join(player=owner))["code"] == "bot_token_required"
    robot = await play_as_bot(server, room_id, bot["token"])
    assert robot.welcome is not None and robot.welcome["token"] is None
    mine = next(p for p in robot.welcome["state"]["players"] if p["player_id"] == bot["player_id"])
    assert mine["bot_account"] is True
    human = await Client.open(server, room_id)
    assert (await human.join(player=person))["type"] == "welcome"
    await robot.seen(human.version)
    mover, other = (robot, human) if robot.welcome["mark"] == "X" else (human, robot)
    await mover.seen(other.version)
    assert (await mover.move(1, 1))["type"] == "move_ok"
    await human.seen(robot.version)
    await robot.seen(human.version)
    assert (await human.act("resign"))["type"] == "ack"  # the bot wins its arena game
    done = await tournament_message(
        follow,
        lambda m: any(s["id"] == bot["player_id"] and s["points"] > 0 for s in m["standings"]),
    )
    assert done["standings"][0]["id"] == bot["player_id"]
    check(BOT_OUT, control.log)
    for client in (control, follow, by_secret, robot, human):
        await client.close()
