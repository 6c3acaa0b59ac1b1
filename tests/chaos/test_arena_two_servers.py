"""An arena of 20 seconds over two ``tictactoe serve`` processes on one private Redis: four
scripted players with identities (one entering late, after the start) and two bots. Both
servers' directors pair and score, racing. Every version of the record either server sent has
nobody in two games at once; at the end every game has a result, scored once, in exactly one
room; each player's games are rooms they played or won at once (the other resigned); and
the standings are core.standings'
from the games."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

import httpx
import pytest
import redis
from websockets.asyncio.client import connect

from core.standings import rank
from tests.chaos.test_tournament_kill import WAIT, identity, play_every_game, post
from tests.support.redis_server import RedisServer
from tests.support.server_process import Fleet, ServerProcess

pytestmark = [pytest.mark.redis, pytest.mark.slow]  # a chaos suite: the slow tier

DURATION = 20.0


def double_booked(record: dict[str, Any]) -> list[str]:
    """The entrants with two games without a result in this version of the record."""
    games = [g for rnd in record["schedule"] for g in rnd["games"] if g["result"] is None]
    busy = Counter(p for g in games for p in (g["first"], g["second"]))
    return [p for p, count in busy.items() if count > 1]


async def watch(server: ServerProcess, tid: str, versions: list[dict[str, Any]]) -> None:
    """Keep every version the server sends, until the arena finishes."""
    async with connect(server.ws(f"t/{tid}"), proxy=None) as follow:
        while True:
            record = json.loads(await follow.recv())
            versions.append(record)
            if record["status"] == "finished":
                return


async def test_an_arena_over_two_servers_books_nobody_twice_and_scores_each_game_once(
    fleet: Fleet, own_redis_server: RedisServer
) -> None:
    one, two = fleet.start(own_redis_server.url, 2)
    players = [await identity(one, name) for name in ("Ada", "Bob", "Cy", "Dee")]
    ada, late = players[0], players[3]
    made = await post(
        one,
        "/api/tournaments",
        {"player": ada, "kind": "arena", "duration": DURATION, "max_players": 8},
    )
    tid = made["tournament_id"]
    assert made["kind"] == "arena" and made["duration"] == DURATION
    for player in players[1:3]:
        await post(two, f"/api/tournaments/{tid}/join", {"player": player})
    for _ in range(2):
        await post(one, f"/api/tournaments/{tid}/bots", {"player": ada, "level": "random"})
    versions: list[dict[str, Any]] = []
    watchers = [asyncio.create_task(watch(s, tid, versions)) for s in (one, two)]
    await asyncio.sleep(0.3)  # the watchers follow before the start
    started = await post(one, f"/api/tournaments/{tid}/start", {"player": ada})
    assert started["status"] == "running" and started["ends_at"] is not None
    servers = (one, two, one)
    async with asyncio.timeout(DURATION + WAIT):
        playing = [
            asyncio.create_task(play_every_game(s, tid, p))
            for s, p in zip(servers, players[:3], strict=True)
        ]
        await asyncio.sleep(2.0)
        joined = await post(two, f"/api/tournaments/{tid}/join", {"player": late})
        assert late["id"] in [e["id"] for e in joined["entrants"]]  # entered while running
        playing.append(asyncio.create_task(play_every_game(two, tid, late)))
        played = await asyncio.gather(*playing)
        await asyncio.gather(*watchers)

    async with httpx.AsyncClient() as http:
        final = (await http.get(f"{two.url}/api/tournaments/{tid}", timeout=WAIT)).json()
    assert final["status"] == "finished"
    assert len(versions) > 10 and not any(double_booked(v) for v in versions)
    games = [g for rnd in final["schedule"] for g in rnd["games"]]
    ids = [e["id"] for e in final["entrants"]]
    assert len(ids) == 6 and len(games) >= 6
    assert all(g["result"] is not None and g["room_id"] is not None for g in games)
    assert all(g["forfeit"] is None for g in games), games
    # one room a game, no twin: the only tournament rooms in Redis are the games'
    client = redis.Redis.from_url(own_redis_server.url, decode_responses=True)
    rooms = {str(key).split("{")[1].split("}")[0] for key in client.keys(f"*{{{tid}-*}}:room")}
    assert rooms == {g["room_id"] for g in games} and len(rooms) == len(games)
    for player, rooms_played in zip(players, played, strict=True):
        mine = [g for g in games if player["id"] in (g["first"], g["second"])]
        assert mine and set(rooms_played) <= {g["room_id"] for g in mine}
        for game in mine:  # a game not played was won at once: the opponent (O) resigned
            assert game["room_id"] in rooms_played or game["result"] == player["id"], game
    late_games = [g for g in games if late["id"] in (g["first"], g["second"])]
    assert (
        min(
            g_round["number"]
            for g_round in final["schedule"]
            if any(g in late_games for g in g_round["games"])
        )
        > 1
    )  # the late entrant was paired after the start
    results = [
        (g["first"], g["second"], None if g["result"] == "draw" else g["result"]) for g in games
    ]
    names = {e["id"]: e["name"] for e in final["entrants"]}
    assert final["standings"] == [
        {**s.to_dict(), "name": names[s.name], "id": s.name} for s in rank(ids, results)
    ]
    assert sum(s["played"] for s in final["standings"]) == 2 * len(games)  # each scored once
