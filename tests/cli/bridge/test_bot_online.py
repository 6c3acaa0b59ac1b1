"""``tictactoe bot``: engines play people in real rooms on a real uvicorn server.

The awk engine of engines/ (another language than the project's) plays a person (a real
WebSocket client) through the bridge; the project's own engine plays one too; engines that
crash or answer an illegal move are resigned for, and one that does not play the room's
rules never takes its seat."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.support.live_server import LiveServer
from tests.support.ws_client import WAIT, Client

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parents[3]
ENGINES = Path(__file__).parent / "engines"
AWK = f"awk -f {ENGINES / 'first_free.awk'}"


def misbehaving(mode: str) -> str:
    return f"sh {ENGINES / 'misbehaving.sh'} {mode}"


async def start_bot(server: LiveServer, room_id: str, engine: str, *flags: str) -> Any:
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "cli", "bot", "--connect", f"{server.url}/r/{room_id}",
        "--engine", engine, *flags,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=ROOT,
    )  # fmt: skip


async def finished(bot: Any) -> tuple[int, str]:
    _, err = await asyncio.wait_for(bot.communicate(), WAIT * 2)
    return bot.returncode, err.decode()


async def person_against(
    server: LiveServer, connect: Callable[..., Any], engine: str, **room: Any
) -> tuple[str, Client, Any]:
    """A room with a person seated as X and the bridge started for O, both seated."""
    room_id = await server.create_room(**room)
    person = await connect(server, room_id)
    assert (await person.join(name="Ada"))["type"] == "welcome"
    bot = await start_bot(server, room_id, engine)
    await person.until("player_joined", status="playing")
    return room_id, person, bot


async def test_the_awk_engine_plays_a_person_to_the_end_and_loses(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id, person, bot = await person_against(server, connect, AWK)
    answers = []
    for cell in [(0, 0), (2, 2), (2, 1), (2, 0)]:
        assert (await person.move(*cell))["type"] == "move_ok"
        if cell == (2, 0):
            break
        moved = await person.until("moved", mark="O")
        answers.append((moved["row"], moved["col"]))
        await person.seen(moved["version"])
    # the centre, then the first free cell row by row, as first_free.awk says
    assert answers == [(1, 1), (0, 1), (0, 2)]
    code, err = await finished(bot)
    assert code == 0, err
    assert "bot: engine first-free.awk 1 (supports players=2 layers=1 gravity=false)" in err
    assert "bot: seated as O" in err
    assert "the game is over: X wins by line; the engine lost" in err
    snapshot = await server.snapshot(room_id)
    assert snapshot["players"][1]["name"] == "first-free.awk"
    assert snapshot["outcome"]["winner"] == "X" and snapshot["ply"] == 7


async def test_the_projects_engine_plays_a_person_and_declines_a_takeback(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    engine = f"{sys.executable} -m cli engine --level perfect --seed 1"
    room_id, person, bot = await person_against(server, connect, engine)
    assert (await person.move(1, 1))["type"] == "move_ok"
    moved = await person.until("moved", mark="O")
    assert (moved["row"], moved["col"]) in {(0, 0), (0, 2), (2, 0), (2, 2)}  # only corners draw
    await person.seen(moved["version"])
    assert (await person.act("takeback"))["type"] == "ack"
    declined = await person.until("takeback_declined")
    assert declined["by"] == "O"
    assert (await person.act("resign"))["type"] == "ack"
    code, err = await finished(bot)
    assert code == 0, err
    assert "the game is over: O wins by resignation; the engine won" in err
    assert (await server.snapshot(room_id))["ply"] == 2


@pytest.mark.parametrize(
    ("mode", "said"),
    [
        ("crash", "engine stderr: giving up on purpose"),
        ("illegal", "the engine played an illegal move '0,0': a1 (row 0, col 0) is taken"),
        ("slow", "gave no move answer in time; it was stopped"),
    ],
)
async def test_an_engine_that_fails_is_resigned_for(
    server: LiveServer, connect: Callable[..., Any], mode: str, said: str
) -> None:
    room_id, person, bot = await person_against(server, connect, misbehaving(mode))
    assert (await person.move(0, 0))["type"] == "move_ok"
    over = await person.until("game_over")
    assert over["outcome"]["reason"] == "resignation" and over["by"] == "O"
    code, err = await finished(bot)
    assert code == 3, err
    assert said in err and "bot: resigned the game: the engine cannot go on" in err
    assert (await server.snapshot(room_id))["ply"] == 1  # nothing was played in its name


async def test_an_engine_that_does_not_play_the_rooms_rules_takes_no_seat(
    server: LiveServer,
) -> None:
    room_id = await server.create_room({"rows": 6, "cols": 7, "k": 4, "gravity": True})
    code, err = await finished(await start_bot(server, room_id, AWK))
    assert code == 2, err
    assert "first-free.awk does not play this room's 6×7 k=4 gravity" in err
    assert (await server.snapshot(room_id))["players"] == []


async def test_a_bad_engine_or_link_plays_nothing(server: LiveServer) -> None:
    room_id = await server.create_room()
    code, err = await finished(await start_bot(server, room_id, "/nonexistent/engine"))
    assert code == 2 and "cannot run the engine '/nonexistent/engine'" in err
    code, err = await finished(
        await start_bot(server, room_id, misbehaving("mute"), "--handshake-timeout", "0.3")
    )
    assert code == 2 and "gave no handshake answer in time" in err
    code, err = await finished(await start_bot(server, "no-such-room", AWK))
    assert code == 2 and "bot: error: room_not_found: there is no room 'no-such-room'" in err
    assert (await server.snapshot(room_id))["players"] == []
