"""A round robin of six entrants (four scripted players with identities, two bots) over two
``tictactoe serve`` processes on one private Redis, one of them killed (``kill -9``) as round 2
opens. The survivor's director carries on: every pairing is played exactly once, in exactly
one room, every result the players made is in the table, colours are balanced, and the
standings are core.tournament's from the results."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from itertools import combinations
from typing import Any

import httpx
import pytest
import redis
from websockets.asyncio.client import connect

from core import Tournament
from tests.support.redis_server import RedisServer
from tests.support.server_process import Fleet, ServerProcess

pytestmark = pytest.mark.redis

WAIT = 60.0  # a bound against hangs, never a measurement


async def identity(server: ServerProcess, name: str) -> dict[str, str]:
    async with httpx.AsyncClient() as http:
        made = (await http.post(f"{server.url}/api/players", json={"name": name})).json()
    return {"id": made["player_id"], "secret": made["secret"]}


async def post(server: ServerProcess, path: str, body: dict[str, Any]) -> dict[str, Any]:
    async with httpx.AsyncClient() as http:
        response = await http.post(f"{server.url}{path}", json=body, timeout=WAIT)
    assert response.is_success, response.text
    answer: dict[str, Any] = response.json()
    return answer


async def play_every_game(server: ServerProcess, tid: str, player: dict[str, str]) -> list[str]:
    """Follow the tournament; in each game resign as O or against a bot. The rooms played."""
    played: list[str] = []
    async with connect(server.ws(f"t/{tid}?player={player['id']}"), proxy=None) as follow:
        while True:
            message = json.loads(await follow.recv())
            if message["status"] == "finished":
                return played
            game = message["your_game"]
            if game is None or game["room_id"] in played:
                continue
            played.append(game["room_id"])
            async with connect(server.ws(game["room_id"]), proxy=None) as room:
                await room.send(json.dumps({"type": "join", "as": "player", "player": player}))
                welcome = json.loads(await room.recv())
                assert welcome["type"] == "welcome", welcome
                state = welcome["state"]
                against_bot = any(p["bot"] for p in state["players"])
                if state["status"] == "playing" and (welcome["mark"] == "O" or against_bot):
                    await room.send(json.dumps({"type": "resign", "id": "r"}))
                while state["status"] != "finished":
                    event = json.loads(await room.recv())
                    state["status"] = event.get("status", state["status"])


async def run_with_a_kill(
    doomed: ServerProcess, survivor: ServerProcess, body: dict[str, Any], bots: int
) -> tuple[dict[str, Any], list[dict[str, str]], list[list[str]]]:
    """Create the tournament on ``doomed`` with four scripted players and ``bots`` bots,
    kill ``doomed`` as round 2 opens, play every game through ``survivor``: the final view,
    the players, and the rooms each played."""
    players = [await identity(survivor, name) for name in ("Ada", "Bob", "Cy", "Dee")]
    ada = players[0]
    tid = (await post(doomed, "/api/tournaments", {"player": ada, **body}))["tournament_id"]
    for player in players[1:]:
        await post(doomed, f"/api/tournaments/{tid}/join", {"player": player})
    for _ in range(bots):
        await post(doomed, f"/api/tournaments/{tid}/bots", {"player": ada, "level": "random"})

    async def kill_as_round_two_opens() -> None:
        async with connect(survivor.ws(f"t/{tid}"), proxy=None) as watcher:
            while json.loads(await watcher.recv())["round"] < 2:
                pass
        doomed.kill()

    killer = asyncio.create_task(kill_as_round_two_opens())
    await asyncio.sleep(0.3)  # the watcher is following before the start
    await post(doomed, f"/api/tournaments/{tid}/start", {"player": ada})
    async with asyncio.timeout(WAIT):
        played = await asyncio.gather(*(play_every_game(survivor, tid, p) for p in players))
        await killer
    assert not doomed.alive
    async with httpx.AsyncClient() as http:
        final = (await http.get(f"{survivor.url}/api/tournaments/{tid}", timeout=WAIT)).json()
    assert final["status"] == "finished"
    return final, players, list(played)


def check_rooms(
    final: dict[str, Any],
    players: list[dict[str, str]],
    played: list[list[str]],
    redis_url: str,
) -> list[dict[str, Any]]:
    """One room a game, no twin; every scripted player's games are the rooms they played,
    with the results they made (O resigned between two of them, they resigned to a bot)."""
    tid = final["tournament_id"]
    games = [g for rnd in final["schedule"] for g in rnd["games"]]
    client = redis.Redis.from_url(redis_url, decode_responses=True)
    rooms = {str(key).split("{")[1].split("}")[0] for key in client.keys(f"*{{{tid}-*}}:room")}
    assert rooms == {g["room_id"] for g in games}
    human = {p["id"] for p in players}
    for player, rooms_played in zip(players, played, strict=True):
        mine = [g for g in games if player["id"] in (g["first"], g["second"])]
        assert sorted(rooms_played) == sorted(g["room_id"] for g in mine)
    for game in games:
        assert game["forfeit"] is None and game["result"] is not None, game
        if game["first"] in human and game["second"] in human:
            assert game["result"] == game["first"]  # O resigned
        elif game["first"] in human or game["second"] in human:
            assert game["result"] not in human  # the human resigned to the bot
    return games


async def test_a_worker_killed_mid_tournament_loses_no_result_and_pairs_no_one_twice(
    fleet: Fleet, own_redis_server: RedisServer
) -> None:
    doomed, survivor = fleet.start(own_redis_server.url, 2)
    final, players, played = await run_with_a_kill(doomed, survivor, {"max_players": 6}, bots=2)
    games = check_rooms(final, players, played, own_redis_server.url)
    ids = [e["id"] for e in final["entrants"]]
    assert len(ids) == 6 and len(games) == 15
    pairs = Counter(frozenset((g["first"], g["second"])) for g in games)
    assert set(pairs) == {frozenset(p) for p in combinations(ids, 2)} and set(pairs.values()) == {1}
    firsts, seconds = Counter(g["first"] for g in games), Counter(g["second"] for g in games)
    assert all(abs(firsts[i] - seconds[i]) <= 1 for i in ids)
    table = Tournament(ids)
    for pairing in table.pairings:
        game = next(g for g in games if (g["first"], g["second"]) == pairing.players)
        table.record(pairing, None if game["result"] == "draw" else game["result"])
    names = {e["id"]: e["name"] for e in final["entrants"]}
    assert final["standings"] == [
        {**s.to_dict(), "name": names[s.name], "id": s.name} for s in table.standings()
    ]
