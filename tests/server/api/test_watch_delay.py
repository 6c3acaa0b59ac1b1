"""A tournament watched with a delay, over a real server: the option is checked; with a 2 s
delay the players see a move at once, while a spectator sees it only 2 s after it landed, as
a ``state`` (never an event), and no other route shows it earlier: a ``sync``, the room API,
the room page's embedded snapshot, the game's record.txt, the tournament's games.txt and the
embedded viewer (``/embed/{id}``)."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.live_server import LiveServer
from tests.support.waiting import eventually
from tests.support.ws_client import Client

STATIC = Path(__file__).resolve().parents[3] / "static"
BLOCK = re.compile(r'<script type="application/json" id="room-snapshot">(.*?)</script>', re.S)
EMBED = re.compile(r'<script type="application/json" id="embed-game">(.*?)</script>', re.S)
DELAY = 2.0


async def identity(http: httpx.AsyncClient, name: str) -> dict[str, str]:
    made = (await http.post("/api/players", json={"name": name})).json()
    return {"id": made["player_id"], "secret": made["secret"]}


@pytest.mark.parametrize("bad", [61, -1, "2", True, None, float("inf")])
async def test_the_delay_is_checked(server: LiveServer, bad: Any) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        ada = await identity(http, "Ada")
        body = {"player": ada, "watch_delay": bad}
        answer = await http.post(
            "/api/tournaments", content=json.dumps(body).replace("Infinity", "1e999"),
            headers={"content-type": "application/json"},
        )  # fmt: skip
        if bad is None:  # null is no delay
            assert answer.status_code == 201, answer.text
            assert answer.json()["watch_delay"] == 0
            return
        assert answer.status_code == 422, answer.text
        assert (answer.json()["code"], answer.json()["field"]) == ("invalid_options", "watch_delay")


async def views(http: httpx.AsyncClient, room_id: str, tid: str) -> list[int]:
    """The plies that the room API, the room page, record.txt, games.txt and the embedded
    viewer show."""
    api, page, record, games, embed = await asyncio.gather(
        http.get(f"/api/rooms/{room_id}"),
        http.get(f"/r/{room_id}/watch"),
        http.get(f"/api/rooms/{room_id}/record.txt"),
        http.get(f"/api/tournaments/{tid}/games.txt"),
        http.get(f"/embed/{room_id}"),
    )
    embedded = json.loads(BLOCK.findall(page.text)[0])
    viewer = json.loads(EMBED.findall(embed.text)[0])
    moves = re.compile(r"^\d+\.\s+[XO]\s+r\d", re.M)
    return [
        api.json()["ply"],
        embedded["ply"],
        len(moves.findall(record.text)),
        len(moves.findall(games.text)),
        len(viewer["moves"]),
    ]


async def test_a_spectator_sees_a_move_only_after_the_delay(
    make_server: Callable[..., LiveServer],
) -> None:
    live = make_server(static_dir=STATIC)
    async with httpx.AsyncClient(base_url=live.url) as http:
        ada, bob = await identity(http, "Ada"), await identity(http, "Bob")
        made = await http.post(
            "/api/tournaments",
            json={"player": ada, "max_players": 2, "watch_delay": DELAY,
                  "time_control": {"initial": 60, "first_move": 30}},
        )  # fmt: skip
        assert made.status_code == 201 and made.json()["watch_delay"] == DELAY, made.text
        tid = made.json()["tournament_id"]
        assert (await http.post(f"/api/tournaments/{tid}/join", json={"player": bob})).is_success
        assert (await http.post(f"/api/tournaments/{tid}/start", json={"player": ada})).is_success

        async def game() -> str | None:
            view = (await http.get(f"/api/tournaments/{tid}?player={ada['id']}")).json()
            return view["your_game"]["room_id"] if view["your_game"] else None

        room_id = await eventually(game, "the tournament's game room")
        seats = [await Client.open(live, room_id) for _ in range(2)]
        watcher = await Client.open(live, room_id, watch=True)
        try:
            by_mark = {}
            for seat, who in zip(seats, (ada, bob), strict=True):
                joined = await seat.join(player=who)
                assert joined["type"] == "welcome"
                by_mark[joined["mark"]] = seat
            welcome = await watcher.join("spectator")
            assert welcome["state"]["settings"]["watch_delay"] == DELAY
            assert welcome["missed"] is None
            guess = {"type": "guess", "row": 0, "col": 0, "version": watcher.version, "id": "g"}
            assert (await watcher.reply(guess))["code"] == "guesses_closed"

            x, o = by_mark["X"], by_mark["O"]
            sent = time.monotonic()
            ok = await x.move(1, 1)
            # meanwhile no route shows the move to a non-player (asked within the delay:
            # what came back later than that may show it, on a machine that slow)
            early = await views(http, room_id, tid)
            await watcher.send({"type": "sync", "id": "s"})
            synced = await watcher.until("state", ref="s")
            within = time.monotonic() - sent < DELAY
            assert early == [0, 0, 0, 0, 0] or not within
            assert synced["type"] == "state"
            assert (synced["state"]["ply"], synced["state"]["clock"]) == (0, None) or not within
            moved = await o.until("moved", version=ok["version"])  # the opponent: at once
            landed = moved["at"]

            shown = await watcher.until("state", ref=None)
            while shown["state"]["ply"] == 0:  # a change before the move (a presence)
                shown = await watcher.until("state", ref=None)
            seen = time.monotonic()
            first = shown["state"]["moves"][0]
            assert (shown["state"]["ply"], first["row"], first["col"]) == (1, 1, 1)
            assert shown["state"]["now"] - landed >= DELAY  # by the server's clock
            assert seen - sent >= DELAY
            assert not [m for m in watcher.log if m["type"] == "moved"]
            assert await views(http, room_id, tid) == [1, 1, 1, 1, 1]
        finally:
            for client in (*seats, watcher):
                await client.close()
