"""A bot's traffic validates against docs/asyncapi.yaml (Draft 2020-12, ``jsonschema``): every
frame of its socket both ways (hello, a challenge, accept, seat, decline, bad input, pong)
and of its room socket (the join with ``bot_token``, a timed game with the clock in every
event, a ``bot_limit`` with its ``field``: a retry counts against the moves a second)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml
from jsonschema import Draft202012Validator

from tests.support.bots import bot_socket, challenge, make_bot
from tests.support.live_server import LiveServer
from tests.support.ws_client import Client

SPEC = yaml.safe_load((Path(__file__).resolve().parents[3] / "docs" / "asyncapi.yaml").read_text())


def validator(name: str) -> Draft202012Validator:
    return Draft202012Validator(
        {"$ref": f"#/components/schemas/{name}", "components": SPEC["components"]}
    )


BOT_IN, BOT_OUT = validator("BotClientMessage"), validator("BotServerMessage")
ROOM_IN, ROOM_OUT = validator("ClientMessage"), validator("ServerMessage")


def check(schema: Draft202012Validator, messages: list[dict[str, Any]]) -> set[str]:
    for message in messages:
        problems = [error.message for error in schema.iter_errors(message)]
        assert not problems, f"{json.dumps(message)[:300]}: {problems[:3]}"
    return {message["type"] for message in messages}


async def test_a_bots_frames_validate_against_the_spec_both_ways(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    server = make_server(bot_moves_per_second=0.01, rate=1000.0, burst=1000)  # one move, then 100 s
    bot = await make_bot(server)
    sent_bot: list[dict[str, Any]] = []
    sent_room: list[dict[str, Any]] = []

    async def say(
        client: Client, message: dict[str, Any], log: list[dict[str, Any]]
    ) -> dict[str, Any]:
        log.append(message)
        return await client.reply(message)

    control = await bot_socket(server)
    assert (await say(control, {"type": "ping", "id": "p0"}, sent_bot))["code"] == "not_joined"
    await say(control, {"type": "hello", "token": bot["token"], "id": "h"}, sent_bot)
    assert (await say(control, {"type": "accept", "challenge_id": "nope"}, sent_bot))[
        "code"
    ] == "not_found"
    assert (await control.reply({"type": "dance"}))["code"] == "unknown_type"  # not in the spec
    timed = {"time_control": {"initial": 60, "increment": 1}, "name": "Ada"}
    declined = (await challenge(server, bot["player_id"], timed)).json()
    told = await control.until("challenge", room_id=declined["room_id"])
    await say(
        control, {"type": "decline", "challenge_id": told["challenge_id"], "id": "d"}, sent_bot
    )
    offer = (await challenge(server, bot["player_id"], timed)).json()
    told = await control.until("challenge", room_id=offer["room_id"])
    assert told["time_control"]["initial"] == 60.0
    await say(
        control, {"type": "accept", "challenge_id": told["challenge_id"], "id": "a"}, sent_bot
    )
    seat = await control.until("seat", room_id=offer["room_id"])
    assert seat["time_control"]["initial"] == 60.0
    assert (await say(control, {"type": "ping", "id": "p1"}, sent_bot))["type"] == "pong"

    person = await connect(server, offer["room_id"])
    await person.join(token=offer["token"])
    robot = await Client.open(server, offer["room_id"])
    welcome = await say(
        robot, {"type": "join", "as": "player", "bot_token": bot["token"]}, sent_room
    )
    assert welcome["state"]["clock"] is not None  # the bot sees the clock
    await person.seen(robot.version)
    assert (await person.move(0, 0))["type"] == "move_ok"
    await robot.seen(person.version)
    move = {"type": "move", "row": 1, "col": 1, "version": robot.version, "move_id": "b1"}
    first = await say(robot, move, sent_room)
    assert first["type"] == "move_ok"
    moved = await robot.until("moved", version=first["version"])
    assert moved["clock"] is not None  # every event carries the clock
    limited = await say(robot, move, sent_room)  # its moves a second are spent
    assert limited["code"] == "bot_limit" and limited["field"] == "moves_per_second"
    assert limited["ref"] == "b1" and limited["retry_after"] > 0

    assert check(BOT_IN, sent_bot) >= {"hello", "accept", "decline", "ping"}
    got_bot = check(BOT_OUT, control.log)
    assert got_bot >= {"bot_welcome", "challenge", "seat", "ack", "pong", "error"}
    assert check(ROOM_IN, sent_room) >= {"join", "move"}
    assert check(ROOM_OUT, robot.log) >= {"welcome", "move_ok", "moved", "error"}
    check(ROOM_OUT, person.log)
    await control.close()
    await robot.close()
