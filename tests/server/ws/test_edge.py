"""Edge security and abuse: origins, frame size, binary data, floods, join timeout, unknown
rooms, dead peers and clients that never read (invariant 8)."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections.abc import Callable
from typing import Any

import pytest
from websockets.asyncio.client import connect as ws_connect
from websockets.client import ClientProtocol
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.typing import Origin
from websockets.uri import parse_uri

from tests.support.live_server import LiveServer


async def test_cross_origin_websocket_is_refused_before_accept(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room()
    with pytest.raises(InvalidStatus) as info:
        await ws_connect(server.ws_url(room_id), origin=Origin("http://evil.example"), proxy=None)
    assert info.value.response.status_code == 403
    same = await connect(server, room_id, origin=f"http://127.0.0.1:{server.port}")
    assert (await same.join("spectator"))["type"] == "welcome"
    no_origin = await connect(server, room_id)  # a non-browser client sends none
    assert (await no_origin.join("spectator"))["type"] == "welcome"


async def test_allowlisted_origins(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    live = make_server(allowed_origins=("https://play.example.com",))
    room_id = await live.create_room()
    client = await connect(live, room_id, origin="https://play.example.com")
    assert (await client.join("spectator"))["type"] == "welcome"
    for origin in ("https://evil.example.com", "http://play.example.com", "null"):
        with pytest.raises(InvalidStatus):
            await ws_connect(live.ws_url(room_id), origin=origin, proxy=None)  # type: ignore[arg-type]


async def test_oversized_frame_closes_with_1009(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room()
    client = await connect(server, room_id)
    await client.join("spectator")
    await client.send(json.dumps({"type": "ping", "pad": "x" * 20_000}))
    assert await client.wait_closed() == 1009


async def test_binary_frame_closes_with_1003(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    client = await connect(server, await server.create_room())
    await client.send(b"\x00\xff binary garbage")
    assert await client.wait_closed() == 1003


async def test_flood_is_refused_then_closed_with_4008(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    live = make_server(rate=0.001, burst=2, flood_strikes=5)
    client = await connect(live, await live.create_room())
    for _ in range(12):
        try:
            await client.send({"type": "ping"})
        except ConnectionClosed:
            break
    assert await client.wait_closed() == 4008
    codes = [m.get("code") for m in client.log if m["type"] == "error"]
    assert codes.count("rate_limited") == 4  # strikes 1-4 answered, the 5th closes


async def test_no_join_in_time_closes_with_4001(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    live = make_server(join_timeout=0.2)
    client = await connect(live, await live.create_room())
    await client.send({"type": "ping"})  # anything but a join does not count
    assert await client.wait_closed() == 4001
    assert client.log[0]["code"] == "not_joined"


async def test_unknown_room_answers_room_not_found_then_closes_with_4004(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    client = await connect(server, "doesnotexist")
    error = await client.join()
    assert (error["code"], error["type"]) == ("room_not_found", "error")
    assert await client.wait_closed() == 4004


def raw_spectator(live: LiveServer, room_id: str, *, rcvbuf: int | None = None) -> socket.socket:
    """A WebSocket client made by hand: handshake and join, then it never reads again
    (so it answers no ping either)."""
    protocol = ClientProtocol(parse_uri(live.ws_url(room_id)))
    sock = socket.socket()
    if rcvbuf is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, rcvbuf)
    sock.connect(("127.0.0.1", live.port))
    protocol.send_request(protocol.connect())
    sock.sendall(b"".join(protocol.data_to_send()))
    response = b""
    while b"\r\n\r\n" not in response:
        response += sock.recv(1)  # exactly the handshake, nothing after it
    assert response.startswith(b"HTTP/1.1 101"), response
    protocol.receive_data(response)
    protocol.send_text(json.dumps({"type": "join", "as": "spectator"}).encode())
    sock.sendall(b"".join(protocol.data_to_send()))
    return sock


async def test_dead_peer_is_noticed_by_heartbeat(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    live = make_server(ping_interval=0.2, ping_timeout=0.2)
    room_id = await live.create_room()
    watcher = await connect(live, room_id)
    await watcher.join("spectator")
    dead = raw_spectator(live, room_id)
    try:
        await watcher.until("spectators", count=2)
        gone = await watcher.until("spectators", count=1)  # the ping went unanswered
        assert gone["version"] > watcher.welcome["version"]
    finally:
        dead.close()


async def test_a_client_that_never_reads_is_dropped_and_delays_nobody(
    make_server: Callable[..., LiveServer],
    connect: Callable[..., Any],
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING, logger="tictactoe.server")
    live = make_server(send_queue=8, rate=100_000.0, burst=100_000, close_timeout=60.0)
    room_id = await live.create_room({"rows": 15, "cols": 15, "k": 5})
    x, o = await connect(live, room_id), await connect(live, room_id)
    await x.join()
    await o.join()
    fast = [await connect(live, room_id) for _ in range(2)]
    for client in fast:
        await client.join("spectator")
    slow_sock = socket.socket()
    slow_sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 2048)
    slow_sock.connect(("127.0.0.1", live.port))
    slow = await ws_connect(live.ws_url(room_id), sock=slow_sock, max_queue=1, proxy=None)
    await slow.send(json.dumps({"type": "join", "as": "spectator"}))
    joined = await fast[0].until("spectators", count=3)
    for client in (x, o, *fast):
        await client.seen(joined["version"])

    async def flood() -> None:
        """Ask for snapshot after snapshot and read none of them."""
        for _ in range(20_000):
            await slow.send('{"type":"sync"}')
            await asyncio.sleep(0)  # the test: a flood that still lets others run

    flooding = asyncio.create_task(flood())
    try:
        # the slow one's departure: a spectators event after its join (the count of 2
        # from before it joined is still there, not taken)
        dropped = await fast[0].until("spectators", count=2)
        while dropped["version"] < joined["version"]:
            dropped = await fast[0].until("spectators", count=2)
        # everyone else still gets every event, in order, while and after the slow one goes
        cells = [(7, 3), (0, 0), (7, 4), (0, 1), (7, 5), (0, 2), (7, 6), (14, 14), (7, 7)]
        for ply, (row, col) in enumerate(cells):
            mover, other = (x, o) if ply % 2 == 0 else (o, x)
            ok = await mover.move(row, col, version=max(mover.version, other.version))
            assert ok["type"] == "move_ok", ok
            await other.seen(ok["version"])
        last = ok["version"]
        for client in (x, o, *fast):
            await client.seen(last)
            versions = [e["version"] for e in client.events]
            start = client.welcome["version"]
            assert versions == list(range(start + 1, last + 1))
            assert [e["type"] for e in client.events].count("moved") == len(cells)
        assert dropped["version"] < last
    finally:
        flooding.cancel()
        await asyncio.gather(flooding, return_exceptions=True)
    # once it reads again, it finds the documented close code after what was queued
    with pytest.raises(ConnectionClosed):
        while True:
            await asyncio.wait_for(slow.recv(), 20)
    assert slow.close_code == 4009
    # logged once, at WARNING, by the slow one's session (tests/server/ws/test_edge_logs.py)
    dropped_logs = [r for r in caplog.records if getattr(r, "refusal", None) == "too_slow"]
    assert len(dropped_logs) == 1 and dropped_logs[0].levelno == logging.WARNING


async def test_shutdown_closes_websockets_with_1012(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    live = make_server()
    client = await connect(live, await live.create_room())
    await client.join("spectator")
    await asyncio.to_thread(live.stop)
    assert await client.wait_closed() == 1012
