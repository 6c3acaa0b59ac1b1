"""The bot API across two server processes on one real Redis: a challenge made on one
reaches the bot's socket on the other, a whole game is played across both, a revoked token
is refused at once on both (the move of an open seat, the bot socket, a new hello), and no
log line of either, at debug level, holds the token or the owner's secret."""

from __future__ import annotations

import httpx

from tests.support.bots import accept, bot_socket, challenge, make_bot, open_room, play_as_bot
from tests.support.server_process import Fleet

GAME = [(0, 0), (1, 1), (0, 1), (2, 2), (0, 2)]


async def test_two_workers_share_challenges_and_a_revocation_at_once(
    fleet: Fleet, redis_url: str
) -> None:
    # house bots think in threads: no process pool to start on a busy host (none plays here)
    quick = {"TICTACTOE_BOT_POOL": "thread"}
    one, two = [
        fleet.launch("--log-level", "debug", store_url=redis_url, env=quick) for _ in range(2)
    ]
    for server in (one, two):
        server.wait_ready()
    bot = await make_bot(one)
    control = await bot_socket(two, bot["token"])  # the bot's socket on the other worker

    offer = (await challenge(one, bot["player_id"], {"name": "Ada"})).json()
    seat = await accept(control, offer["room_id"])
    person = await open_room(two, offer["room_id"])
    await person.join(token=offer["token"])
    robot = await play_as_bot(one, offer["room_id"], bot["token"])
    assert seat["mark"] == "O"
    for (row, col), mover in zip(GAME, [person, robot] * 3, strict=False):
        await mover.seen(max(person.version, robot.version))
        assert (await mover.move(row, col))["type"] == "move_ok"
    assert (await robot.until("moved", status="finished"))["outcome"]["winner"] == "X"

    rematch = (await challenge(two, bot["player_id"], {"name": "Ada"})).json()
    await accept(control, rematch["room_id"])
    again = await open_room(one, rematch["room_id"])
    await again.join(token=rematch["token"])
    seated = await play_as_bot(two, rematch["room_id"], bot["token"])
    await again.seen(seated.version)
    assert (await again.move(1, 1))["type"] == "move_ok"
    await seated.seen(again.version)

    async with httpx.AsyncClient(base_url=one.url) as http:  # revoked on the first worker
        revoked = await http.delete(
            f"/api/bots/{bot['player_id']}/token",
            headers={
                "Authorization": f"Bearer {bot['secret']}",
                "Content-Type": "application/json",
            },
        )
    assert revoked.status_code == 204
    refused = await seated.move(0, 0)  # ... refused at once on the second
    assert refused["code"] == "bad_identity" and await seated.wait_closed() == 4401
    assert await control.wait_closed() == 4401
    for server in (one, two):
        late = await bot_socket(server)
        assert (await late.reply({"type": "hello", "token": bot["token"]}))[
            "code"
        ] == "bad_identity"
        assert await late.wait_closed() == 4401
    for client in (person, robot, again):
        await client.close()

    logs = one.log + two.log
    assert "< TEXT [" in logs  # debug on: every frame was logged, as its kind and size
    secret_part = bot["token"].rsplit(".", 1)[1]
    assert secret_part not in logs and bot["token"] not in logs
    assert bot["secret"] not in logs
