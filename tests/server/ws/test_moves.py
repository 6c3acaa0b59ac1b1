"""Idempotent moves over the wire: retries, stale versions, racing connections of a seat."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

from tests.support.live_server import LiveServer
from tests.support.ws_client import Client


async def seated(server: LiveServer, connect: Callable[..., Any]) -> tuple[str, Client, Client]:
    room_id = await server.create_room()
    x, o = await connect(server, room_id), await connect(server, room_id)
    await x.join()
    await x.seen((await o.join())["version"])
    return room_id, x, o


async def test_the_same_move_id_twice_is_applied_once(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id, x, o = await seated(server, connect)
    version = x.version
    first = await x.move(1, 1, version=version, move_id="retry-me")
    assert first["type"] == "move_ok" and first["duplicate"] is False
    again = await x.move(1, 1, version=version, move_id="retry-me")
    assert again == {**first, "duplicate": True}
    other_cell = await x.move(2, 2, version=version, move_id="retry-me")  # still the same id
    assert other_cell["duplicate"] is True and other_cell["version"] == first["version"]
    snapshot = await server.snapshot(room_id)
    assert snapshot["ply"] == 1 and snapshot["version"] == first["version"]
    await o.until("moved", version=first["version"])
    ok = await o.move(0, 0)
    assert ok["type"] == "move_ok"
    await o.until("moved", version=ok["version"])  # its own move's event follows the reply
    assert [e["type"] for e in o.events].count("moved") == 2  # nobody saw a second X move


async def test_a_move_for_an_old_version_is_stale(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id, x, o = await seated(server, connect)
    old = o.version
    assert (await x.move(1, 1))["type"] == "move_ok"
    error = await o.move(0, 0, version=old, move_id="o-stale")
    assert (error["code"], error["ref"]) == ("stale_version", "o-stale")
    sync = await o.reply({"type": "sync", "id": "s1"})
    assert sync["type"] == "state" and sync["ref"] == "s1"
    assert sync["state"]["board"] == ".../.X./..." and sync["version"] >= old + 1
    retry = await o.move(0, 0, version=sync["version"], move_id="o-stale")
    assert retry["type"] == "move_ok" and (await server.snapshot(room_id))["ply"] == 2


async def test_both_connections_of_a_seat_move_at_once_exactly_one_lands(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    for _ in range(15):
        room_id, tab1, o = await seated(server, connect)
        tab2 = await connect(server, room_id)
        await tab2.join(token=tab1.welcome["token"])  # type: ignore[index]
        await tab1.seen(tab2.version)
        version = tab2.version
        answers = await asyncio.gather(
            tab1.move(0, 0, version=version, move_id="from-tab1"),
            tab2.move(2, 2, version=version, move_id="from-tab2"),
        )
        kinds = sorted(answer["type"] for answer in answers)
        assert kinds == ["error", "move_ok"], answers
        error = next(a for a in answers if a["type"] == "error")
        assert error["code"] in {"stale_version", "not_your_turn"}
        snapshot = await server.snapshot(room_id)
        assert snapshot["ply"] == 1 and snapshot["board"].count("X") == 1
        for client in (tab1, tab2, o):
            await client.close()
