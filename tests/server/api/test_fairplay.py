"""The fair-play ledger through a real server (rooms.fairplay, server/api/fairplay.py): two
identities finish a game, the worker judges it against the solver, and the operators' API
gives each player's counts, only to the operator token."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from typing import Any

import httpx

from core import Move, Rules
from core.fairplay import Judged, judge
from tests.support.live_server import LiveServer
from tests.support.ws_client import WAIT, Client

TOKEN = "operator-" + "x" * 24
RULES = {"rows": 4, "cols": 4, "k": 3}
X_WINS = [(1, 1), (3, 3), (1, 2), (3, 0), (1, 3)]


async def identity(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    made = (await http.post("/api/players", json={"name": name})).json()
    return {"id": made["player_id"], "secret": made["secret"]}


async def play(live: LiveServer, room: str, ada: dict[str, str], bob: dict[str, str]) -> None:
    x, o = await Client.open(live, room), await Client.open(live, room)
    try:
        assert (await x.join(player=ada))["mark"] == "X"
        assert (await o.join(player=bob))["mark"] == "O"
        for seat, (row, col) in zip([x, o, x, o, x], X_WINS, strict=True):
            await seat.seen(max(x.version, o.version))
            assert (await seat.move(row, col))["type"] == "move_ok"
        await x.until("moved", status="finished")
    finally:
        await x.close()
        await o.close()


async def test_a_finished_games_counts_reach_the_operator(
    make_server: Callable[..., LiveServer],
) -> None:
    live = make_server(operator_token=TOKEN)
    expected = judge(Rules.from_dict(RULES), [Move(r, c) for r, c in X_WINS])
    assert expected is not None and expected["X"].critical > 0
    async with httpx.AsyncClient(base_url=live.url) as http:
        ada, bob = await identity(http, "Ada"), await identity(http, "Bob")
        room = await live.create_room(RULES)
        await play(live, room, ada, bob)
        auth = {"authorization": f"Bearer {TOKEN}"}

        async def summary(player: dict[str, str]) -> dict[str, Any]:
            answer = await http.get(f"/api/fairplay/{player['id']}", headers=auth)
            assert answer.status_code == 200, answer.text
            body: dict[str, Any] = answer.json()
            return body

        deadline = time.monotonic() + WAIT
        while (await summary(ada))["games"] == 0:  # judged off the loop, after the end
            assert time.monotonic() < deadline, "the game was never judged"
            await asyncio.sleep(0.05)
        for player, mark in ((ada, "X"), (bob, "O")):
            got = await summary(player)
            want: Judged = expected[mark]
            assert (got["games"], got["critical"], got["matched"]) == (
                1, want.critical, want.matched
            )  # fmt: skip
            assert got["flagged"] is False
        assert (await http.get("/api/fairplay", headers=auth)).json() == {"flagged": []}

        for headers in ({}, {"authorization": "Bearer wrong"}, {"authorization": TOKEN}):
            refused = await http.get(f"/api/fairplay/{ada['id']}", headers=headers)
            assert (refused.status_code, refused.json()["code"]) == (401, "bad_identity")


async def test_without_an_operator_token_the_api_is_absent(
    make_server: Callable[..., LiveServer],
) -> None:
    live = make_server()
    async with httpx.AsyncClient(base_url=live.url) as http:
        for path in ("/api/fairplay", "/api/fairplay/someone"):
            answer = await http.get(path, headers={"authorization": "Bearer anything"})
            assert (answer.status_code, answer.json()["code"]) == (404, "not_found")
