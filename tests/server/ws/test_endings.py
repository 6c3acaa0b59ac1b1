"""Endings and offers over real WebSockets, two players and a spectator: abort, resign,
draws agreed and declined, takebacks accepted, declined and backed off."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from tests.support.live_server import LiveServer
from tests.support.ws_client import Client, table


async def everyone(clients: list[Client], kind: str, **fields: Any) -> list[dict[str, Any]]:
    return [await client.until(kind, **fields) for client in clients]


async def test_abort_before_both_moved_ends_with_no_result(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id, x, o, watcher = await table(server, connect)
    assert (await x.move(1, 1))["type"] == "move_ok"
    ack = await o.act("abort")
    assert ack["type"] == "ack" and isinstance(ack["version"], int)
    for event in await everyone([x, o, watcher], "game_over"):
        assert event["outcome"]["reason"] == "aborted" and event["by"] == "O"
        assert event["version"] == ack["version"]
    snapshot = await server.snapshot(room_id)
    assert snapshot["status"] == "finished" and snapshot["outcome"]["winner"] is None
    assert [p["wins"] + p["draws"] for p in snapshot["players"]] == [0, 0]


async def test_resign_gives_the_opponent_the_win(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id, x, o, watcher = await table(server, connect)
    await x.move(1, 1)
    await o.seen(x.version)
    await o.move(0, 0)
    assert (await x.act("resign"))["type"] == "ack"
    for event in await everyone([x, o, watcher], "game_over"):
        assert event["outcome"] == {
            "reason": "resignation",
            "winner": "O",
            "loser": "X",
            "line": [],
        }
    snapshot = await server.snapshot(room_id)
    assert [(p["mark"], p["wins"]) for p in snapshot["players"]] == [("X", 0), ("O", 1)]


async def test_a_draw_declined_then_agreed(server: LiveServer, connect: Callable[..., Any]) -> None:
    room_id, x, o, watcher = await table(server, connect)
    await x.move(1, 1)
    assert (await x.act("offer_draw"))["type"] == "ack"
    for event in await everyone([x, o, watcher], "draw_offered"):
        assert event["by"] == "X" and event["offers"]["draw"] == "X"
    assert (await o.act("decline_draw"))["type"] == "ack"
    for event in await everyone([x, o, watcher], "draw_declined"):
        assert event["by"] == "O" and event["offers"]["draw"] is None
    again = await x.act("offer_draw")  # not before X moved again
    assert again["code"] == "too_soon"
    await o.seen(x.version)
    await o.move(0, 0)
    await x.seen(o.version)
    await x.move(2, 2)
    await x.act("offer_draw")
    await o.until("draw_offered")
    assert (await o.act("accept_draw"))["type"] == "ack"
    for event in await everyone([x, o, watcher], "game_over"):
        assert event["outcome"]["reason"] == "agreement" and event["outcome"]["winner"] is None
    snapshot = await server.snapshot(room_id)
    assert [p["draws"] for p in snapshot["players"]] == [1, 1]


async def test_takebacks_accepted_declined_and_backed_off(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    live = make_server(takeback_backoff=0.3)
    room_id, x, o, watcher = await table(live, connect)
    await x.move(1, 1)
    await o.seen(x.version)
    await o.move(0, 0)
    # X asks after O replied: accepting takes back both moves, X is to move again
    assert (await x.act("takeback"))["type"] == "ack"
    await o.until("takeback_offered", by="X")
    assert (await o.act("accept_takeback"))["type"] == "ack"
    for event in await everyone([x, o, watcher], "undone"):
        assert [(m["mark"], m["row"], m["col"]) for m in event["moves"]] == [
            ("O", 0, 0),
            ("X", 1, 1),
        ]
        assert event["board"] == ".../.../..." and event["turn"] == "X"
    await x.move(0, 2)
    await x.act("takeback")
    await o.until("takeback_offered")
    assert (await o.act("decline_takeback"))["type"] == "ack"
    await x.until("takeback_declined", by="O")
    refused = await x.act("takeback")
    assert refused["code"] == "too_soon" and 0 < refused["retry_after"] <= 0.3
    # after the backoff X may ask again: wait as long as the server says, then retry
    answer = refused
    for _ in range(50):
        await asyncio.sleep(answer["retry_after"])  # the test: as long as the server said
        answer = await x.act("takeback")
        if answer["type"] == "ack":
            break
        assert answer["code"] == "too_soon"
    else:
        raise AssertionError("the backoff never ended")
    await watcher.until("takeback_offered", by="X")
    snapshot = await live.snapshot(room_id)
    assert snapshot["offers"]["takeback"] == "X" and snapshot["ply"] == 1
