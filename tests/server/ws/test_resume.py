"""Disconnect and resume: the seat token brings a player back to the same seat."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

import pytest

from tests.support.live_server import LiveServer


async def test_player_reconnects_with_token_and_continues_in_the_same_seat(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room()
    x, o = await connect(server, room_id), await connect(server, room_id)
    token = (await x.join(name="Ada"))["token"]
    await x.seen((await o.join(name="Grace"))["version"])
    assert (await x.move(1, 1))["type"] == "move_ok"
    await x.close()
    gone = await o.until("presence", mark="X")
    assert gone["connected"] is False
    assert (await server.snapshot(room_id))["players"][0]["connected"] is False
    assert (await o.move(0, 0))["type"] == "move_ok"  # O moves while X is away

    x2 = await connect(server, room_id)
    welcome = await x2.join(token=token, last_version=gone["version"] - 1)
    assert (welcome["mark"], welcome["token"], welcome["role"]) == ("X", None, "player")
    assert welcome["state"]["players"][0]["name"] == "Ada"
    assert welcome["state"]["players"][0]["connected"] is True
    assert [m["type"] for m in welcome["missed"]] == ["presence", "moved", "presence"]
    assert [m["version"] for m in welcome["missed"]] == list(
        range(gone["version"], welcome["version"] + 1)
    )
    back = await o.until("presence", mark="X", connected=True)
    assert back["version"] == welcome["version"]
    ok = await x2.move(2, 2)
    assert ok["type"] == "move_ok"
    event = await o.until("moved", version=ok["version"])
    assert event["mark"] == "X"


async def test_wrong_or_missing_token_cannot_take_the_seat(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room()
    x, o = await connect(server, room_id), await connect(server, room_id)
    token = (await x.join())["token"]
    await o.join()
    await x.close()
    await o.until("presence", mark="X", connected=False)
    before = await server.stored(room_id)

    thief = await connect(server, room_id)
    wrong = token[:-2] + ("aa" if not token.endswith("aa") else "bb")
    error = await thief.join(token=wrong)
    assert (error["type"], error["code"]) == ("error", "bad_token")
    error = await thief.join()
    assert (error["type"], error["code"]) == ("error", "room_full")
    assert "spectator" in error["message"]
    assert await server.stored(room_id) == before
    error = await thief.move(0, 0)  # and with no seat, no move
    assert error["code"] == "not_joined"
    watcher = await thief.join("spectator")  # the socket stayed open: it may watch
    assert watcher["type"] == "welcome" and watcher["role"] == "spectator"
    assert (await thief.move(0, 0))["code"] == "not_a_player"


async def test_resume_after_the_log_moved_on_gets_the_snapshot(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    live = make_server(log_size=2)
    room_id = await live.create_room()
    x, o = await connect(live, room_id), await connect(live, room_id)
    await x.join()
    await o.join()
    seen = x.version
    for _ in range(3):
        await (await connect(live, room_id)).join("spectator")
    late = await connect(live, room_id)
    welcome = await late.join("spectator", last_version=seen)
    assert welcome["missed"] is None and welcome["state"]["spectators"] == 4
    recent = await connect(live, room_id)
    current = welcome["version"]
    welcome = await recent.join("spectator", last_version=current)
    assert [m["version"] for m in welcome["missed"]] == [current + 1]


async def test_two_tabs_on_one_seat_both_receive_and_may_move(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room()
    tab1, o = await connect(server, room_id), await connect(server, room_id)
    token = (await tab1.join())["token"]
    await o.join()
    tab2 = await connect(server, room_id)
    assert (await tab2.join(token=token))["mark"] == "X"
    opened = await o.until("presence", mark="X")
    assert opened["connected"] is True and opened["version"] == tab2.welcome["version"]
    ok = await tab2.move(0, 0)
    for client in (tab1, o):
        await client.until("moved", version=ok["version"])
    await tab2.close()
    closed = await o.until("presence", mark="X")
    assert closed["version"] > ok["version"]
    assert closed["connected"] is True  # tab1 is still there
    assert (await tab1.move(2, 2, version=closed["version"]))["code"] == "not_your_turn"


async def test_no_token_in_any_log_line(
    make_server: Callable[..., LiveServer],
    connect: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    live = make_server()
    server_loggers = ("uvicorn", "uvicorn.error", "uvicorn.access", "tictactoe", "starlette")
    for name in server_loggers:  # uvicorn's loggers do not propagate: listen on each one
        caplog.set_level(logging.DEBUG, logger=name)
        logging.getLogger(name).addHandler(caplog.handler)
    try:
        room_id = await live.create_room()
        x = await connect(live, room_id)
        token = (await x.join())["token"]
        await x.close()
        again = await connect(live, room_id)
        assert (await again.join(token=token))["mark"] == "X"
        await again.send("not json")  # errors are logged nowhere with content either
        await again.until("error")
        await again.close()
    finally:
        for name in server_loggers:
            logging.getLogger(name).removeHandler(caplog.handler)
    records = [r for r in caplog.records if r.name.split(".")[0] in server_loggers]
    assert records, "the server logged nothing: the check would prove nothing"
    leaks = [r for r in records if token in r.getMessage() or token in str(r.args)]
    assert not leaks, [(r.name, r.getMessage()) for r in leaks]
