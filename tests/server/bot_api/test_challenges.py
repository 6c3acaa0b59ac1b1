"""Challenges and limits on a real server (docs/protocol.md, "Bots"): a declined challenge
aborts its room, an offline bot is refused, each per-bot limit refuses with ``bot_limit``
naming it, a rated game between two bots counts in a bot pool only, and a person cannot
play a rated game against a bot."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import httpx

from tests.support.bots import accept, bot_socket, challenge, make_bot, play_as_bot
from tests.support.live_server import LiveServer


async def test_a_declined_challenge_aborts_its_room_and_an_offline_bot_is_refused(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    bot = await make_bot(server)
    offline = await challenge(server, bot["player_id"], {"name": "Ada"})
    assert offline.status_code == 409 and offline.json()["code"] == "bot_offline"
    control = await bot_socket(server, bot["token"])
    async with httpx.AsyncClient(base_url=server.url) as http:
        listed = (await http.get("/api/bots")).json()["bots"]
    assert any(b["player_id"] == bot["player_id"] and b["bot"] for b in listed)
    offer = (await challenge(server, bot["player_id"], {"name": "Ada"})).json()
    person = await connect(server, offer["room_id"])
    await person.join(token=offer["token"])
    told = await control.until("challenge", room_id=offer["room_id"])
    declined = await control.reply(
        {"type": "decline", "challenge_id": told["challenge_id"], "id": "d"}
    )
    assert declined == {"type": "ack", "ref": "d"}
    over = await person.until("game_over")
    assert over["outcome"]["reason"] == "aborted"
    twice = await control.reply({"type": "accept", "challenge_id": told["challenge_id"], "id": "a"})
    assert twice["code"] == "not_found" and twice["ref"] == "a"  # answered once, for good
    await control.close()


async def refusals(server: LiveServer) -> dict[str, float]:
    """``tictactoe_bot_refusals_total`` by limit, as ``GET /metrics`` shows it."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        text = (await http.get("/metrics")).text
    found = re.findall(r'^tictactoe_bot_refusals_total\{limit="(\w+)"\} ([\d.e+]+)$', text, re.M)
    return {limit: float(value) for limit, value in found}


async def test_each_limit_refuses_with_a_typed_error_naming_it(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    # one move at once, then one in 100 s: the second comes too fast however busy the host
    server = make_server(bot_max_games=1, bot_games_per_day=2, bot_moves_per_second=0.01)
    before = await refusals(server)
    bot = await make_bot(server)
    control = await bot_socket(server, bot["token"])
    first = (await challenge(server, bot["player_id"])).json()
    await accept(control, first["room_id"])
    busy = await challenge(server, bot["player_id"])
    assert busy.status_code == 429
    assert busy.json()["code"] == "bot_limit" and busy.json()["field"] == "max_games"

    person = await connect(server, first["room_id"])
    await person.join(token=first["token"])
    robot = await play_as_bot(server, first["room_id"], bot["token"])
    await person.seen(robot.version)
    assert (await person.move(0, 0))["type"] == "move_ok"
    await robot.seen(person.version)
    assert (await robot.move(1, 1))["type"] == "move_ok"  # its burst: one move at once
    await person.seen(robot.version)
    assert (await person.move(0, 1))["type"] == "move_ok"
    await robot.seen(person.version)
    too_fast = await robot.move(2, 2)
    assert too_fast["code"] == "bot_limit" and too_fast["field"] == "moves_per_second"
    assert too_fast["retry_after"] > 0 and not robot.done  # not played; the socket stays
    assert (await person.act("resign"))["type"] == "ack"

    second = (await challenge(server, bot["player_id"])).json()  # the game is over: room again
    await accept(control, second["room_id"])
    spare = await connect(server, second["room_id"])
    await spare.join(token=second["token"])
    assert (await spare.act("abort"))["type"] == "ack"
    third = await challenge(server, bot["player_id"])
    assert third.status_code == 429 and third.json()["field"] == "games_per_day"
    async with httpx.AsyncClient(base_url=server.url) as http:
        online = re.search(
            r"^tictactoe_bots_online ([\d.]+)$", (await http.get("/metrics")).text, re.M
        )
    assert online is not None and float(online.group(1)) >= 1  # this bot's socket is open
    after = await refusals(server)  # each refusal counted by its limit (the metrics doc)
    for limit in ("max_games", "moves_per_second", "games_per_day"):
        assert after[limit] >= before.get(limit, 0.0) + 1, limit
    await control.close()
    await robot.close()


async def test_two_bots_play_a_rated_game_in_a_bot_pool_and_a_person_cannot(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    bot, rival = await make_bot(server, "Alpha"), await make_bot(server, "Beta")
    control = await bot_socket(server, bot["token"])
    rival_control = await bot_socket(server, rival["token"])
    person = await challenge(server, bot["player_id"], {"rated": True, "name": "Ada"})
    assert person.status_code == 409 and person.json()["code"] == "bots_only"

    made = await challenge(
        server, bot["player_id"], {"rated": True}, Authorization=f"Bearer {rival['token']}"
    )
    assert made.status_code == 201 and made.json()["token"] is None and made.json()["rated"]
    offer = made.json()
    told = await control.until("challenge", room_id=offer["room_id"])
    assert told["from"] == {"name": "Beta", "player_id": rival["player_id"], "bot": True}
    assert (await control.reply({"type": "accept", "challenge_id": told["challenge_id"]}))[
        "type"
    ] == "ack"
    await rival_control.until("seat", room_id=offer["room_id"])  # the challenger's seat too
    x = await play_as_bot(server, offer["room_id"], rival["token"])
    o = await play_as_bot(server, offer["room_id"], bot["token"])
    assert o.welcome is not None and o.welcome["state"]["pool"] == "bot.classic.untimed"
    for (row, col), mover in zip(
        [(0, 0), (1, 1), (0, 1), (2, 2), (0, 2)], [x, o] * 3, strict=False
    ):
        await mover.seen(max(x.version, o.version))
        assert (await mover.move(row, col))["type"] == "move_ok"
    rated = await x.until("rated")
    assert rated["pool"] == "bot.classic.untimed"
    async with httpx.AsyncClient(base_url=server.url) as http:
        board = (await http.get("/api/leaderboards/bot.classic.untimed")).json()
        people = (await http.get("/api/leaderboards/classic.untimed")).json()
        beta = (await http.get(f"/api/players/{rival['player_id']}")).json()
    rows = board["top"] + board["provisional"]
    assert {row["player_id"] for row in rows} >= {bot["player_id"], rival["player_id"]}
    assert all(row["bot"] for row in rows)
    assert not {row["player_id"] for row in people["top"] + people["provisional"]} & {
        bot["player_id"],
        rival["player_id"],
    }
    assert beta["bot"] is True and set(beta["ratings"]) == {"bot.classic.untimed"}
    for client in (control, rival_control, x, o):
        await client.close()


async def test_quick_play_offers_a_game_against_an_online_bot(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    server = make_server(bot_max_games=1)
    async with httpx.AsyncClient(base_url=server.url) as http:
        nobody = await http.post("/api/quickplay", json={"opponent": "bot", "name": "Ada"})
        assert nobody.status_code == 409 and nobody.json()["code"] == "bot_offline"
        bot = await make_bot(server)
        control = await bot_socket(server, bot["token"])
        played = await http.post("/api/quickplay", json={"opponent": "bot", "name": "Ada"})
        assert played.status_code == 200, played.text
        answer = played.json()
        assert answer["opponent"]["player_id"] == bot["player_id"] and answer["token"]
        seat = await accept(control, answer["room_id"])
        person = await connect(server, answer["room_id"])
        assert (await person.join(token=answer["token"]))["type"] == "welcome"
        robot = await play_as_bot(server, answer["room_id"], bot["token"])
        await person.seen(robot.version)
        assert seat["opponent"]["name"] == "Ada" and person.version == robot.version
        busy = await http.post("/api/quickplay", json={"opponent": "bot"})
        assert busy.status_code == 409 and busy.json()["code"] == "bot_offline"  # at its limit
        wrong = await http.post("/api/quickplay", json={"opponent": "alien"})
        assert wrong.status_code == 422 and wrong.json()["field"] == "opponent"
    await control.close()
    await robot.close()
