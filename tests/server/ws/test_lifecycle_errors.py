"""Every lifecycle command sent at the wrong moment, over a real WebSocket: it gets its
error code, the room is unchanged, and the connection stays open."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from tests.server.ws.test_errors import LIFECYCLE
from tests.support.live_server import LiveServer
from tests.support.ws_client import Client, table


class Checker:
    def __init__(self, server: LiveServer, room_id: str) -> None:
        self.server = server
        self.room_id = room_id
        self.provoked: set[str] = set()

    async def refused(self, client: Client, kind: str, code: str, **fields: Any) -> None:
        before = await self.server.stored(self.room_id)
        answer = await client.act(kind, **fields)
        assert (answer["type"], answer["code"]) == ("error", code), answer
        assert answer["message"]
        assert await self.server.stored(self.room_id) == before, f"{code} changed the room"
        assert not client.done
        self.provoked.add(code)


async def test_every_lifecycle_command_at_the_wrong_moment(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    live = make_server(abandon_grace=60.0)
    provoked: set[str] = set()

    # a room still waiting for its second player
    waiting = await live.create_room()
    alone = await connect(live, waiting)
    await alone.join()
    check = Checker(live, waiting)
    for kind in ("resign", "offer_draw", "takeback", "claim"):
        fields = {"result": "win"} if kind == "claim" else {}
        await check.refused(alone, kind, "not_started", **fields)
    await check.refused(alone, "rematch", "not_finished")
    provoked |= check.provoked

    room_id, x, o, watcher = await table(live, connect)
    check = Checker(live, room_id)
    for kind in ("resign", "abort", "offer_draw", "accept_draw", "takeback", "rematch", "claim"):
        fields = {"result": "win"} if kind == "claim" else {}
        await check.refused(watcher, kind, "not_a_player", **fields)
    await check.refused(x, "rematch", "not_finished")
    await check.refused(x, "accept_draw", "no_offer")
    await check.refused(o, "decline_takeback", "no_offer")
    await check.refused(x, "takeback", "nothing_to_take_back")
    await check.refused(x, "claim", "not_claimable", result="win")
    await check.refused(x, "chat", "chat_too_long", text="y" * 250)
    assert (await x.move(1, 1))["type"] == "move_ok"
    await x.act("offer_draw")
    await check.refused(x, "accept_draw", "no_offer")  # your own offer
    await check.refused(o, "offer_draw", "offer_pending")
    await o.act("decline_draw")
    await check.refused(x, "offer_draw", "too_soon")
    await x.act("takeback")
    await check.refused(x, "takeback", "offer_pending")
    await check.refused(x, "accept_takeback", "no_offer")
    await o.act("decline_takeback")
    await check.refused(x, "takeback", "too_soon")
    await o.seen(x.version)
    await o.move(0, 0)
    await check.refused(x, "abort", "cannot_abort")
    assert (await o.act("resign"))["type"] == "ack"
    for kind in ("resign", "offer_draw", "accept_draw", "takeback", "claim"):
        fields = {"result": "win"} if kind == "claim" else {}
        await check.refused(x, kind, "game_over", **fields)
    await x.act("rematch")
    await check.refused(x, "rematch", "offer_pending")
    provoked |= check.provoked

    bot_room = await live.create_room(bot="bot:random")
    human = await connect(live, bot_room)
    await human.join()
    await human.move(1, 1)
    check = Checker(live, bot_room)
    await human.until("moved", mark="O")  # the bot answered
    await check.refused(human, "offer_draw", "bot_opponent")
    provoked |= check.provoked

    assert {code.value for code in LIFECYCLE} <= provoked
