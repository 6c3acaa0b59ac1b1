"""The bot API on a real server (docs/protocol.md, "Bots"): a bot made over HTTP hears of a
person's challenge on its socket, accepts it, joins the room with its token and plays the
game out against the person; its seat shows it as a bot account and has no seat token, so
only its token plays it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.support.bots import bot_socket, challenge, make_bot, play_as_bot
from tests.support.live_server import LiveServer


async def test_a_person_challenges_a_bot_which_accepts_and_plays_the_game_out(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    bot = await make_bot(server, "Robo")
    assert bot["bot"] is True and bot["token"].startswith("tb1.")
    control = await bot_socket(server, bot["token"])
    try:
        made = await challenge(server, bot["player_id"], {"name": "Ada"})
        assert made.status_code == 201, made.text
        offer = made.json()
        person = await connect(server, offer["room_id"])
        assert (await person.join(token=offer["token"]))["type"] == "welcome"

        told = await control.until("challenge", challenge_id=offer["challenge_id"])
        assert told["from"] == {"name": "Ada", "player_id": None, "bot": False}
        assert (
            await control.reply(
                {"type": "accept", "challenge_id": told["challenge_id"], "id": "a1"}
            )
        )["type"] == "ack"
        seat = await control.until("seat", room_id=offer["room_id"])
        assert seat["mark"] == "O" and seat["opponent"]["name"] == "Ada"

        robot = await play_as_bot(server, offer["room_id"], bot["token"])
        assert robot.welcome is not None and robot.welcome["token"] is None
        seats = robot.welcome["state"]["players"]
        assert [s["bot_account"] for s in seats] == [False, True]
        await person.seen(robot.version)
        for (row, col), mover in zip(
            [(0, 0), (1, 1), (0, 1), (2, 2), (0, 2)], [person, robot] * 3, strict=False
        ):
            await mover.seen(max(person.version, robot.version))
            played = await mover.move(row, col, move_id=f"m-{row}-{col}")
            assert played["type"] == "move_ok" and not played["duplicate"]
            if mover is robot:  # a bot retries as anyone: the same move_id is played once
                retried = await robot.move(
                    row, col, version=played["version"] - 1, move_id=f"m-{row}-{col}"
                )
                assert retried["duplicate"] and retried["version"] == played["version"]
        over = await robot.until("moved", status="finished")
        assert over["outcome"]["winner"] == "X"
        await robot.close()
    finally:
        await control.close()
