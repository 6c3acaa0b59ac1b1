"""The lifecycle over HTTP, on a real server: room options (bots, time controls), quick
play pairing simultaneous requests, a full game against bot:perfect that the human cannot
win, and the game record as text."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from core import Game, Rules
from rooms.room import parse_record
from tests.support.live_server import LiveServer
from tests.support.ws_client import Client


async def post(server: LiveServer, path: str, body: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.url) as http:
        return await http.post(path, json=body)


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"bot": "bot:genius"}, "bot"),
        ({"bot": "perfect"}, "bot"),
        ({"bot": "bot:easy", "rules": {"players": 3, "rows": 4, "cols": 4}}, "bot"),
        ({"bot": "bot:easy", "bot_mark": "A"}, "bot_mark"),
        ({"bot_mark": "X"}, "bot_mark"),
        ({"time_control": {"initial": -5}}, "time_control.initial"),
        ({"time_control": {"initial": 60, "increment": "2"}}, "time_control.increment"),
        ({"time_control": {"initial": 60, "delay": 2}}, "time_control.delay"),
        ({"time_control": 60}, "time_control"),
    ],
)
async def test_bad_room_options_are_422_with_the_field(
    server: LiveServer, body: dict[str, Any], field: str
) -> None:
    response = await post(server, "/api/rooms", body)
    assert response.status_code == 422, response.text
    assert response.json()["code"] == "invalid_options" and response.json()["field"] == field


async def test_a_room_with_a_bot_and_a_clock(server: LiveServer) -> None:
    response = await post(
        server,
        "/api/rooms",
        {"bot": "bot:medium", "bot_mark": "X", "time_control": {"initial": 90, "increment": 1}},
    )
    assert response.status_code == 201
    body = response.json()
    assert body["bot"] == "medium"
    assert body["time_control"] == {"initial": 90.0, "increment": 1.0, "first_move": 30.0}
    snapshot = await server.snapshot(body["room_id"])
    assert snapshot["players"][0]["bot"] == "medium" and snapshot["players"][0]["connected"]
    assert snapshot["status"] == "waiting" and snapshot["clock"]["remaining"]["X"] == 90.0


async def test_a_full_game_against_bot_perfect_the_human_cannot_win(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room(bot="bot:perfect")
    human, watcher = await connect(server, room_id), await connect(server, room_id)
    welcome = await human.join(name="Hopeful")
    assert welcome["mark"] == "X" and welcome["state"]["status"] == "playing"
    await watcher.join("spectator")
    game = Game(Rules())
    while not game.is_over:
        # the human tries the first legal cell, greedily; the bot answers every move
        move = (
            game.legal_moves()[0]
            if game.ply
            else next(m for m in game.legal_moves() if (m.row, m.col) == (0, 0))
        )
        assert (await human.move(move.row, move.col))["type"] == "move_ok"
        game.play(move)
        mine = await human.until("moved", mark="X", ply=game.ply)
        if mine["status"] == "finished":
            break
        answer = await human.until("moved", mark="O", ply=game.ply + 1)
        game.play({"row": answer["row"], "col": answer["col"]})
    final = await watcher.until("moved", status="finished")
    assert final["outcome"]["winner"] != "X"
    snapshot = await server.snapshot(room_id)
    assert snapshot["outcome"]["winner"] in {None, "O"} and snapshot["board"] == game.board.text


async def test_a_bot_that_plays_first_moves_at_once_and_takes_back(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room(bot="bot:random", bot_mark="X")
    human = await connect(server, room_id)
    assert (await human.join())["mark"] == "O"
    first = await human.until("moved", mark="X", ply=1)
    assert (
        await human.move(
            *next(
                (r, c) for r in range(3) for c in range(3) if (r, c) != (first["row"], first["col"])
            )
        )
    )["type"] == "move_ok"
    await human.until("moved", mark="X", ply=3)
    assert (await human.act("takeback"))["type"] == "ack"
    undone = await human.until("undone")
    assert undone["ply"] == 1 and undone["turn"] == "O" and len(undone["moves"]) == 2


async def test_quick_play_pairs_two_simultaneous_requests_every_time(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    rules = {"rows": 4, "cols": 5, "k": 4}
    for round_ in range(12):
        first, second = await asyncio.gather(
            post(server, "/api/quickplay", {"rules": rules, "name": f"A{round_}"}),
            post(server, "/api/quickplay", {"rules": rules, "name": f"B{round_}"}),
        )
        one, two = first.json(), second.json()
        assert first.status_code == second.status_code == 200
        assert one["room_id"] == two["room_id"] and {one["mark"], two["mark"]} == {"X", "O"}
        assert one["matched"] != two["matched"] and one["token"] != two["token"]
    # the tokens work: both players join their seats and play
    clients = [await connect(server, one["room_id"]), await connect(server, two["room_id"])]
    marks = [
        (await c.join(token=t))["mark"]
        for c, t in zip(clients, [one["token"], two["token"]], strict=True)
    ]
    assert sorted(marks) == ["O", "X"]
    x: Client = clients[marks.index("X")]
    assert (await x.move(0, 0))["type"] == "move_ok"


async def test_quick_play_joins_the_oldest_public_room_with_the_same_rules(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    rules = {"rows": 6, "cols": 3, "k": 3}
    older = await server.create_room(rules, public=True)
    host = await connect(server, older)
    await host.join(name="Host")
    other = await post(server, "/api/quickplay", {"rules": {"rows": 6, "cols": 4, "k": 3}})
    assert other.json()["room_id"] != older and not other.json()["matched"]
    response = await post(server, "/api/quickplay", {"rules": rules, "name": "Quick"})
    assert response.json()["room_id"] == older and response.json()["mark"] == "O"
    event = await host.until("player_joined")
    assert event["player"]["name"] == "Quick" and event["status"] == "playing"
    bad = await post(server, "/api/quickplay", {"rules": {"k": 99}})
    assert bad.status_code == 422 and bad.json()["code"] == "invalid_rules"
    bad = await post(server, "/api/quickplay", {"name": ""})
    assert bad.status_code == 400 and bad.json()["code"] == "bad_message"


async def test_the_game_record_as_text_steps_through_with_the_cli_parser(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room()
    x, o = await connect(server, room_id), await connect(server, room_id)
    await x.join(name="Ada")
    await o.join(name="Grace")
    for mover, waiter, (row, col) in [(x, o, (1, 1)), (o, x, (0, 0)), (x, o, (2, 2))]:
        await mover.seen(waiter.version)
        await mover.move(row, col)
    await x.act("resign")
    async with httpx.AsyncClient(base_url=server.url) as http:
        response = await http.get(f"/api/rooms/{room_id}/record.txt")
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/plain")
        record = parse_record(response.text)
        assert record.headers["X"] == "Ada" and record.result == "0-1"
        assert record.headers["Termination"] == "resignation"
        assert [(m.row, m.col) for m, _ in record.moves] == [(1, 1), (0, 0), (2, 2)]
        assert record.replay().board.text == "O../.X./..X"
        missing = await http.get(f"/api/rooms/{room_id}/record.txt", params={"game": "7"})
        assert missing.status_code == 404 and missing.json()["code"] == "not_found"
        gone = await http.get("/api/rooms/nosuchroom/record.txt")
        assert gone.status_code == 404 and gone.json()["code"] == "room_not_found"
