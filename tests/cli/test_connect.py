"""``tictactoe play --connect``: the terminal game against a live server, as a player and as
a spectator (the client library it plays through: tests/client/)."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Callable
from typing import Any

import pytest

from client import RoomLink
from tests.support.cli_process import finish, start_cli
from tests.support.live_server import LiveServer
from tests.support.waiting import eventually
from tests.support.ws_client import WAIT

pytestmark = pytest.mark.process  # every test here runs the terminal client


async def players_in(server: LiveServer, room_id: str, count: int) -> None:
    async def joined() -> bool:
        return len((await server.snapshot(room_id))["players"]) >= count

    await eventually(joined, f"{count} players joined", timeout=WAIT)


async def test_cli_player_against_a_websocket_player(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room()
    x = await connect(server, room_id)
    await x.join(name="Web")
    cli = await start_cli("--connect", f"{server.url}/r/{room_id}", "--name", "Terminal")
    assert cli.stdin is not None
    cli.stdin.write(b"0 0\nundo\nredo\n1 1\n2 2\n")  # read only when it is O's turn
    await players_in(server, room_id, 2)
    await x.seen((await server.snapshot(room_id))["version"])
    for row, col in [(0, 0), (0, 1), (0, 2)]:
        ok = await x.move(row, col)
        assert ok["type"] == "move_ok", ok
        if col < 2:
            o_move = await x.until("moved", mark="O")
            await x.seen(o_move["version"])
    code, out, err = await finish(cli)
    assert code == 0, err
    assert "You are O in room" in out and "Web joined as X" not in out
    assert "error: a1 (row 0, col 0) is taken" in out
    assert "error: undo is not available in a game over the network" in out
    assert "error: redo is not available in a game over the network" in out
    assert "O plays (row 1, col 1)." in out and "X plays (row 0, col 2)." in out
    assert out.rstrip().endswith(
        "Result: X wins with 3 in a row at (row 0, col 0) (row 0, col 1) (row 0, col 2)."
    )
    snapshot = await server.snapshot(room_id)
    assert snapshot["players"][1]["name"] == "Terminal" and snapshot["ply"] == 5


async def test_cli_creates_a_room_from_the_rules_flags(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    cli = await start_cli("--connect", server.url, "--rows", "4", "--cols", "4", "--k", "3")
    assert cli.stdout is not None and cli.stdin is not None
    line = (await asyncio.wait_for(cli.stdout.readline(), WAIT)).decode()
    if line.startswith("Made your player identity"):  # the first game with this server
        line = (await asyncio.wait_for(cli.stdout.readline(), WAIT)).decode()
    assert line.startswith("Created a room. Invite the other player: ")
    link = RoomLink.parse(line.split()[-1])
    assert link.room_id is not None
    cli.stdin.write(b"0 0\n0 1\n0 2\n")
    o = await connect(server, link.room_id)
    assert (await o.join())["state"]["rules"]["rows"] == 4
    for row, col in [(3, 3), (3, 2)]:
        x_move = await o.until("moved", mark="X")
        ok = await o.move(row, col, version=x_move["version"])
        assert ok["type"] == "move_ok", ok
    code, out, err = await finish(cli)
    assert code == 0, err
    assert "You are X" in out and "Result: X wins" in out


async def test_cli_watches_a_game_from_the_middle(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id = await server.create_room({"rows": 6, "cols": 7, "k": 4, "gravity": True})
    x, o = await connect(server, room_id), await connect(server, room_id)
    await x.join()
    await x.seen((await o.join())["version"])
    for client, col in [(x, 3), (o, 3)]:
        ok = await client.move(None, col)
        await (o if client is x else x).seen(ok["version"])
    watcher = await start_cli("--connect", f"{server.url}/r/{room_id}/watch")

    async def watching() -> bool:
        return bool((await server.snapshot(room_id))["spectators"] == 1)

    await eventually(watching, "the terminal watching", timeout=WAIT)
    for client, col in [(x, 4), (o, 4), (x, 5), (o, 5), (x, 6)]:
        other = o if client is x else x
        await client.seen(other.version)
        ok = await client.move(None, col)
        assert ok["type"] == "move_ok", ok
    code, out, err = await finish(watcher)
    assert code == 0, err
    assert "Watching room" in out and "Waiting for" in out
    assert out.count(" plays ") == 5  # live; the two before it came are on its first board
    assert "X plays (row 5, col 6)." in out and "Result: X wins" in out


@pytest.mark.parametrize(
    ("flags", "message"),
    [
        (["--connect", "http://127.0.0.1:{port}/r/nosuchroom"], "there is no room"),
        (["--connect", "ftp://example.com"], "not a server or room link"),
        (["--connect", "http://127.0.0.1:{port}/elsewhere/x"], "not a room link"),
        (["--connect", "http://127.0.0.1:{port}", "--watch"], "--watch needs a room link"),
        (["--watch"], "--watch needs --connect"),
        (["--connect", "http://127.0.0.1:{dead}/r/abcd"], "cannot connect"),
    ],
)
async def test_cli_connection_errors_are_clear(
    server: LiveServer, flags: list[str], message: str
) -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        dead = unused.getsockname()[1]
    cli = await start_cli(*(f.format(port=server.port, dead=dead) for f in flags))
    code, _, err = await finish(cli)
    assert code == 2 and message in err and "Traceback" not in err


async def test_cli_creates_a_correspondence_room_with_days(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    cli = await start_cli("--connect", server.url, "--days", "3")
    assert cli.stdout is not None and cli.stdin is not None
    line = (await asyncio.wait_for(cli.stdout.readline(), WAIT)).decode()
    if line.startswith("Made your player identity"):
        line = (await asyncio.wait_for(cli.stdout.readline(), WAIT)).decode()
    link = RoomLink.parse(line.split()[-1])
    assert link.room_id is not None
    o = await connect(server, link.room_id)
    welcome = await o.join()
    assert welcome["state"]["clock"]["days"] == 3
    assert welcome["state"]["clock"]["initial"] == 3 * 86400
    cli.stdin.write(b"quit\n")
    code, out, err = await finish(cli)
    assert code == 0 and "X quit; the game is left unfinished." in out, (out, err)
