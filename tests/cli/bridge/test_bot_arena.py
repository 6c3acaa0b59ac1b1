"""``tictactoe bot`` in an arena (docs/tournaments.md): a bot account whose engine is the awk
script of engines/ is entered by its owner, follows the arena through the bridge, plays every
game the arena pairs it in against a person (a real WebSocket client), and stops when the
arena is finished, its games counted in the standings. Every frame of its tournament and room
sockets is checked against docs/asyncapi.yaml on the way (tests/support/spec_relay.py). (About
12 s: the arena lasts 10 s, the shortest an arena may.)"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.bots import make_bot
from tests.support.live_server import LiveServer
from tests.support.spec_relay import SpecRelay
from tests.support.ws_client import WAIT, Client

pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parents[3]
AWK = f"awk -f {Path(__file__).parent / 'engines' / 'first_free.awk'}"
SCRIPTS = {"X": [(0, 0), (2, 2), (2, 1), (2, 0)], "O": [(0, 0), (2, 1), (2, 0), (1, 2)]}
"""The person's moves against first_free.awk: as X a win in four, as O a draw (the engine
takes the centre, then the first free cell row by row)."""


async def play_out(person: Client, welcome: dict[str, Any]) -> None:
    """The person's script for its mark, each move once it is the person's turn (the engine
    may have moved before the person joined: the welcome shows it)."""
    mark, ply = welcome["mark"], welcome["state"]["ply"]
    other = "O" if mark == "X" else "X"
    for number, cell in enumerate(SCRIPTS[mark]):
        while ply < 2 * number + (mark == "O"):
            moved = await person.until("moved", mark=other)
            ply = moved["ply"]
            await person.seen(moved["version"])
        assert (await person.move(*cell))["type"] == "move_ok"
        ply += 1
    await person.until("moved", status="finished")


async def test_a_bot_account_plays_its_arena_games_through_the_bridge(
    server: LiveServer, connect: Callable[..., Any], tmp_path: Path
) -> None:
    bot = await make_bot(server, "Awk Bot")
    token_file = tmp_path / "token"
    token_file.write_text(bot["token"] + "\n")
    relay = await SpecRelay(server.port).start()  # the bridge's every frame, checked
    async with httpx.AsyncClient(base_url=server.url) as http:
        ada = (await http.post("/api/players", json={"name": "Ada"})).json()
        person = {"id": ada["player_id"], "secret": ada["secret"]}
        made = await http.post(
            "/api/tournaments",
            json={"player": person, "kind": "arena", "duration": 10, "name": "Quick arena"},
        )
        assert made.status_code == 201, made.text
        tid = made.json()["tournament_id"]
        owner = {"id": bot["player_id"], "secret": bot["secret"]}
        assert (await http.post(f"/api/tournaments/{tid}/join", json={"player": owner})).is_success
        bridge = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "cli", "bot", "--connect", f"{relay.url}/t/{tid}",
            "--token-file", str(token_file), "--engine", AWK,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, cwd=ROOT,
        )  # fmt: skip
        try:
            started = await http.post(f"/api/tournaments/{tid}/start", json={"player": person})
            assert started.json()["status"] == "running"
            games = 0
            while True:
                view = (await http.get(f"/api/tournaments/{tid}?player={ada['player_id']}")).json()
                if view["status"] == "finished":
                    break
                game = view["your_game"]
                if game is None:
                    await asyncio.sleep(0.05)  # a poll for the next pairing, not a measurement
                    continue
                seat = await connect(server, game["room_id"])
                welcome = await seat.join(player=person)
                assert welcome["type"] == "welcome", welcome
                await play_out(seat, welcome)
                await seat.close()
                games += 1
                while (await http.get(f"/api/tournaments/{tid}?player={ada['player_id']}")).json()[
                    "your_game"
                ] == game:
                    await asyncio.sleep(0.05)  # the result is recorded just after the game
            _, err_bytes = await asyncio.wait_for(bridge.communicate(), WAIT * 2)
        finally:
            if bridge.returncode is None:
                bridge.kill()
                await bridge.communicate()
            await relay.stop()
    err = err_bytes.decode()
    assert bridge.returncode == 0, err
    assert games >= 1
    assert err.count("] seated as ") == games, err
    assert "bot: the tournament is finished: " in err
    standings = {row["id"]: row for row in view["standings"]}
    assert standings[bot["player_id"]]["played"] == games
    assert standings[ada["player_id"]]["played"] == games
    # every frame of the bridge's sockets is in the spec (the tournament's it only hears)
    sockets = {("tournament", "receive"), ("room", "send"), ("room", "receive")}
    assert relay.saw() == sockets and not relay.invalid, (relay.counts, relay.invalid)
