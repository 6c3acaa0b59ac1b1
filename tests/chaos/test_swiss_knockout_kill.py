"""A Swiss of 7 (3 rounds) and a knockout of 8, each over two ``tictactoe serve`` processes on
one private Redis, one of them killed (``kill -9``) as round 2 opens. The survivor's director
carries on to the end: every game is played in exactly one room (no twin in Redis), every
result the scripted players made is in the record, a Swiss still meets nobody twice and gives
each bye once, and a knockout's bracket is whole, each match decided once."""

from __future__ import annotations

from collections import Counter

import pytest

from tests.chaos.test_tournament_kill import check_rooms, run_with_a_kill
from tests.support.redis_server import RedisServer
from tests.support.server_process import Fleet

pytestmark = [pytest.mark.redis, pytest.mark.slow]  # two servers each: the slow tier


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
