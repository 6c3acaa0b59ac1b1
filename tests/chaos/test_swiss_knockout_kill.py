"""A Swiss of 7 (3 rounds) and a knockout of 8, each over two ``tictactoe serve`` processes on
one private Redis, one of them killed (``kill -9``) as round 2 opens. The survivor's director
carries on to the end: every game is played in exactly one room (no twin in Redis), every
result the scripted players made is in the record, a Swiss still meets nobody twice and gives
each bye once, and a knockout's bracket is whole, each match decided once."""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

import httpx
import pytest
import redis
from websockets.asyncio.client import connect

from tests.chaos.test_tournament_kill import WAIT, identity, play_every_game, post
from tests.support.redis_server import RedisServer
from tests.support.server_process import Fleet, ServerProcess

pytestmark = [pytest.mark.redis, pytest.mark.slow]  # two servers each: the slow tier


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


async def test_a_swiss_survives_a_worker_killed_as_round_two_opens(
    fleet: Fleet, own_redis_server: RedisServer
) -> None:
    doomed, survivor = fleet.start(own_redis_server.url, 2)
    body = {"kind": "swiss", "rounds": 3, "max_players": 7}
    final, players, played = await run_with_a_kill(doomed, survivor, body, bots=3)
    games = check_rooms(final, players, played, own_redis_server.url)
    assert len(final["schedule"]) == 3 and len(games) == 9
    byes = [r["bye"] for r in final["schedule"]]
    assert None not in byes and len(set(byes)) == 3
    pairs = Counter(frozenset((g["first"], g["second"])) for g in games)
    assert set(pairs.values()) == {1}
    rounds_of = Counter(p for g in games for p in (g["first"], g["second"]))
    assert all(rounds_of[e["id"]] + byes.count(e["id"]) == 3 for e in final["entrants"])


async def test_a_knockout_survives_a_worker_killed_as_round_two_opens(
    fleet: Fleet, own_redis_server: RedisServer
) -> None:
    doomed, survivor = fleet.start(own_redis_server.url, 2)
    body = {"kind": "knockout", "draw_rule": "replay", "max_players": 8}
    final, players, played = await run_with_a_kill(doomed, survivor, body, bots=4)
    games = check_rooms(final, players, played, own_redis_server.url)
    matches = [m for r in final["bracket"] for m in r["matches"]]
    assert [len(r["matches"]) for r in final["bracket"]] == [4, 2, 1]
    assert all(m["winner"] in m["players"] for m in matches)
    # each match's games are the schedule's, once each; a decided match has no game after
    # its decider (a drawn game replayed at most until one is won)
    listed = [g["room_id"] for m in matches for g in m["games"]]
    assert sorted(listed) == sorted(g["room_id"] for g in games)
    for m in matches:
        assert [g["result"] for g in m["games"]][:-1] == ["draw"] * (len(m["games"]) - 1)
        assert m["games"][-1]["result"] == m["winner"]
    winners = Counter(m["winner"] for m in matches)
    champion = final["bracket"][-1]["matches"][0]["winner"]
    assert winners[champion] == 3 and final["standings"][0]["id"] == champion
