"""Clocks and chat over real WebSockets: a flag falls on time by the server's own timer
with the increment applied; chat reaches exactly its audience and cannot be spoofed."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.support.live_server import LiveServer
from tests.support.ws_client import table

TC = {"initial": 2.0, "increment": 0.5, "first_move": 10.0}


async def test_the_flag_falls_on_time_with_the_increment_applied(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id, x, o, watcher = await table(server, connect, time_control=TC)
    start = (await server.snapshot(room_id))["clock"]
    assert start == {
        **TC,
        "remaining": {"X": 2.0, "O": 2.0},
        "running": None,
        "deadline": start["deadline"],
    }
    await x.move(1, 1)  # first moves: their own limit, no clock, no increment
    await o.seen(x.version)
    await o.move(0, 0)
    o_moved = await x.until("moved", mark="O")
    assert o_moved["clock"]["running"] == "X"
    assert o_moved["clock"]["remaining"] == {"X": 2.0, "O": 2.0}
    await x.move(2, 2)  # X's clock ran since O's move; X gains the increment
    x_moved = await watcher.until("moved", mark="X", ply=3)
    spent = x_moved["at"] - o_moved["at"]
    assert x_moved["clock"]["remaining"]["X"] == pytest.approx(2.0 - spent + 0.5, abs=2e-3)
    assert x_moved["clock"]["running"] == "O" and x_moved["due"] == x_moved["clock"]["deadline"]
    # O never moves: its flag falls, committed by the server's timer with nobody asking
    for client in (x, o, watcher):
        event = await client.until("game_over")
        assert event["outcome"] == {"reason": "timeout", "winner": "X", "loser": "O", "line": []}
        assert event["by"] is None and event["clock"]["remaining"]["O"] == 0.0
    snapshot = await server.snapshot(room_id)
    assert snapshot["status"] == "finished" and snapshot["outcome"]["reason"] == "timeout"
    assert snapshot["due"] is None


async def test_a_first_move_that_never_comes_aborts_the_game(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    _room_id, x, _o, _watcher = await table(
        server, connect, time_control={"initial": 60, "first_move": 0.5}
    )
    event = await x.until("game_over")  # X joined before the game (and its limit) began
    assert event["outcome"]["reason"] == "aborted" and event["by"] is None
    late = await x.move(1, 1)
    assert late["code"] == "game_over"


async def test_chat_reaches_its_audience_only_and_names_the_real_speaker(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id, x, o, watcher = await table(server, connect)
    other = await connect(server, room_id)
    await other.join("spectator", name="Eve")
    ack = await x.act("chat", text="  good luck!  ", **{"from": {"name": "Grace"}})
    assert ack == {"type": "ack", "ref": ack["ref"], "version": None}
    for client in (x, o):
        line = await client.until("chat", channel="players")
        assert line["from"] == {"role": "player", "mark": "X", "name": "Ada"}
        assert line["text"] == "good luck!"
    await watcher.act("chat", text="nice opening", channel="players")
    for client in (watcher, other):
        line = await client.until("chat", channel="spectators")
        assert line["from"] == {"role": "spectator", "mark": None, "name": "Bob"}
    await o.act("chat", text="thanks")
    await x.until("chat", text="thanks")
    await other.act("chat", text="bye")
    await watcher.until("chat", text="bye")
    # a spectator never got the players' lines, nor a player the spectators'
    assert {m["text"] for m in watcher.log if m["type"] == "chat"} == {"nice opening", "bye"}
    assert {m["text"] for m in other.log if m["type"] == "chat"} == {"nice opening", "bye"}
    assert {m["text"] for m in x.log if m["type"] == "chat"} == {"good luck!", "thanks"}
    assert {m["text"] for m in o.log if m["type"] == "chat"} == {"good luck!", "thanks"}
    # chat is not game state: no version moved, nothing in the room record
    assert (await server.snapshot(room_id))["version"] == x.version


async def test_chat_limits(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    live = make_server(chat_rate=0.01, chat_burst=3)
    _room_id, x, o, _watcher = await table(live, connect)
    assert (await x.act("chat", text="x" * 201))["code"] == "chat_too_long"
    for i in range(3):
        assert (await x.act("chat", text=f"line {i}"))["type"] == "ack"
    limited = await x.act("chat", text="one more")
    assert limited["code"] == "rate_limited" and not x.done
    assert (await x.reply({"type": "ping", "id": "still"}))["type"] == "pong"
    await o.until("chat", text="line 2")
    assert [m["text"] for m in o.log if m["type"] == "chat"] == ["line 0", "line 1", "line 2"]
