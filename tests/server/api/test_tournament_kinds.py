"""A Swiss and a knockout over a real server: options checked with typed errors; a Swiss of 7
(three scripted players with identities, four bots) played through its 3 rounds, one bye a
round, nobody met twice; a knockout of 8 seeded in entry order (nobody rated) whose first
game, between two scripted players, is drawn and replayed with colours swapped, played to its
final with the live socket following. Every socket message validates against
docs/asyncapi.yaml's TournamentView."""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

from tests.server.api.test_tournaments import get, identity, next_message, play_every_game, post
from tests.server.test_asyncapi import TOURNAMENT
from tests.support.live_server import LiveServer
from tests.support.ws_client import Client

DRAWN = [(1, 1), (0, 0), (0, 2), (2, 0), (1, 0), (1, 2), (0, 1), (2, 1), (2, 2)]
"""A classic 3×3 game that fills the board with no line: X, O, X, ... in turn."""


async def test_swiss_and_knockout_options_are_checked(server: LiveServer) -> None:
    ada = await identity(server, "Ada")
    refused: list[tuple[dict[str, Any], str]] = [
        ({"kind": "swiss"}, "rounds"),
        ({"kind": "swiss", "rounds": 0}, "rounds"),
        ({"kind": "swiss", "rounds": 8, "max_players": 8}, "rounds"),
        ({"kind": "swiss", "rounds": "3"}, "rounds"),
        ({"kind": "swiss", "rounds": True}, "rounds"),
        ({"kind": "swiss", "rounds": 3, "draw_rule": "replay"}, "draw_rule"),
        ({"rounds": 3}, "rounds"),
        ({"kind": "knockout", "draw_rule": "coin"}, "draw_rule"),
        ({"kind": "knockout", "draw_rule": None, "rounds": 2}, "rounds"),
        ({"kind": "knockout", "duration": 60}, "duration"),
        ({"kind": "knockout", "double": True}, "double"),
        ({"kind": "arena", "duration": 60, "draw_rule": "replay"}, "draw_rule"),
        ({"kind": "ladder"}, "kind"),
    ]
    for body, field in refused:
        answer = await post(server, "/api/tournaments", {"player": ada, **body})
        assert answer.status_code == 422, (body, answer.text)
        assert answer.json()["code"] == "invalid_options", answer.text
        assert answer.json()["field"] == field, (body, answer.text)
    swiss = (
        await post(server, "/api/tournaments", {"player": ada, "kind": "swiss", "rounds": 3})
    ).json()
    assert (swiss["kind"], swiss["rounds"], swiss["draw_rule"]) == ("swiss", 3, None)
    knockout = (await post(server, "/api/tournaments", {"player": ada, "kind": "knockout"})).json()
    assert (knockout["kind"], knockout["draw_rule"], knockout["bracket"]) == (
        "knockout",
        "replay",
        None,
    )
    early = await post(server, f"/api/tournaments/{swiss['tournament_id']}/start", {"player": ada})
    assert (early.status_code, early.json()["code"]) == (409, "tournament_closed")
    assert "needs at least 4 entrants" in early.json()["message"]


async def test_a_swiss_of_seven_over_three_rounds_is_played_through(server: LiveServer) -> None:
    ada, bob, cy = [await identity(server, name) for name in ("Ada", "Bob", "Cy")]
    made = await post(
        server,
        "/api/tournaments",
        {"name": "Swiss night", "kind": "swiss", "rounds": 3, "max_players": 7, "player": ada,
         "time_control": {"initial": 60, "first_move": 20}},
    )  # fmt: skip
    assert made.status_code == 201, made.text
    tid = made.json()["tournament_id"]
    for player in (bob, cy):
        assert (await post(server, f"/api/tournaments/{tid}/join", {"player": player})).is_success
    for _ in range(4):
        bot = await post(server, f"/api/tournaments/{tid}/bots", {"player": ada, "level": "random"})
        assert bot.is_success, bot.text
    follows = [await Client.open(server, f"t/{tid}?player={p['id']}") for p in (ada, bob, cy)]
    watcher = await Client.open(server, f"t/{tid}")
    try:
        started = await post(server, f"/api/tournaments/{tid}/start", {"player": ada})
        assert started.is_success and started.json()["round"] == 1, started.text
        counts = await asyncio.gather(
            *(play_every_game(server, p, f) for p, f in zip((ada, bob, cy), follows, strict=True))
        )
        final = await next_message(watcher, lambda m: m["status"] == "finished")
        seen_rounds = {m["round"] for m in watcher.log if m["type"] == "tournament"}
        assert {1, 2, 3} <= seen_rounds  # the socket streamed each round
        for message in watcher.log:
            TOURNAMENT.validate(message)
    finally:
        for client in (*follows, watcher):
            await client.close()
    answer = (await get(server, f"/api/tournaments/{tid}")).json()
    assert {**answer, "type": "tournament"} == final
    assert answer["rounds"] == 3 and len(answer["schedule"]) == 3
    byes = [r["bye"] for r in answer["schedule"]]
    assert None not in byes and len(set(byes)) == 3
    games = [g for r in answer["schedule"] for g in r["games"]]
    assert len(games) == 9 and all(g["result"] is not None for g in games)
    pairs = Counter(frozenset((g["first"], g["second"])) for g in games)
    assert set(pairs.values()) == {1}
    ids = [e["id"] for e in answer["entrants"]]
    bots = [e["name"] for e in answer["entrants"] if e["bot"]]
    assert bots == ["Bot (random)", "Bot (random) 2", "Bot (random) 3", "Bot (random) 4"]
    played = Counter(p for g in games for p in (g["first"], g["second"]))
    assert all(played[i] + byes.count(i) == 3 for i in ids)
    humans = [p["id"] for p in (ada, bob, cy)]
    assert counts == [played[h] for h in humans]
    assert sum(s["points"] for s in answer["standings"]) >= 3 * 3  # the byes count 3 each


async def play_drawn(
    server: LiveServer, room_id: str, x: dict[str, str], o: dict[str, str]
) -> None:
    """``x`` and ``o`` (identities) take their seats in ``room_id`` and draw its game."""
    cx, co = await Client.open(server, room_id), await Client.open(server, room_id)
    try:
        assert (await cx.join(player=x))["mark"] == "X"
        assert (await co.join(player=o))["mark"] == "O"
        for turn, (row, col) in enumerate(DRAWN):
            mover, other = (cx, co) if turn % 2 == 0 else (co, cx)
            await mover.seen(other.version)
            assert (await mover.move(row, col))["type"] == "move_ok"
        over = await cx.until("moved", status="finished")
        assert over["outcome"]["winner"] is None, over
    finally:
        await cx.close()
        await co.close()


async def test_a_knockout_of_eight_with_a_drawn_game_is_played_through(server: LiveServer) -> None:
    ada, bob = [await identity(server, name) for name in ("Ada", "Bob")]
    made = await post(
        server,
        "/api/tournaments",
        {"name": "Cup", "kind": "knockout", "draw_rule": "replay", "max_players": 8, "player": ada,
         "time_control": {"initial": 60, "first_move": 20}},
    )  # fmt: skip
    tid = made.json()["tournament_id"]
    for _ in range(6):
        assert (
            await post(server, f"/api/tournaments/{tid}/bots", {"player": ada, "level": "random"})
        ).is_success
    assert (await post(server, f"/api/tournaments/{tid}/join", {"player": bob})).is_success
    follow_ada = await Client.open(server, f"t/{tid}?player={ada['id']}")
    follow_bob = await Client.open(server, f"t/{tid}?player={bob['id']}")
    watcher = await Client.open(server, f"t/{tid}")
    try:
        started = (await post(server, f"/api/tournaments/{tid}/start", {"player": ada})).json()
        # nobody rated: seeded as they entered, Ada 1 and Bob 8, who meet first (1 v 8)
        bracket = started["bracket"]
        assert [len(r["matches"]) for r in bracket] == [4, 2, 1]
        assert bracket[0]["matches"][0]["players"] == [ada["id"], bob["id"]]
        assert bracket[0]["matches"][0]["seeds"] == [1, 8]
        first = await next_message(follow_ada, lambda m: m["your_game"] is not None)
        room = first["your_game"]["room_id"]
        await play_drawn(server, room, ada, bob)
        replayed = await next_message(
            follow_bob, lambda m: m["your_game"] is not None and m["your_game"]["room_id"] != room
        )
        match = replayed["bracket"][0]["matches"][0]
        assert [g["result"] for g in match["games"]] == ["draw", None]
        assert (match["games"][1]["first"], match["games"][1]["second"]) == (bob["id"], ada["id"])
        again = Client.open(server, replayed["your_game"]["room_id"])
        bob_room = await again
        try:
            assert (await bob_room.join(player=bob))["mark"] == "X"
            assert (await bob_room.act("resign"))["type"] == "ack"  # Ada goes through
        finally:
            await bob_room.close()
        # Ada plays on against bots, resigning each game: the bots play theirs out
        await play_every_game(server, ada, follow_ada, (room, replayed["your_game"]["room_id"]))
        final = await next_message(watcher, lambda m: m["status"] == "finished")
    finally:
        for client in (follow_ada, follow_bob, watcher):
            await client.close()
    for message in watcher.log:
        TOURNAMENT.validate(message)
    matches = [m for r in final["bracket"] for m in r["matches"]]
    assert all(m["winner"] is not None for m in matches) and len(matches) == 7
    assert matches[0]["winner"] == ada["id"] and len(matches[0]["games"]) == 2
    champion = final["bracket"][-1]["matches"][0]["winner"]
    assert final["standings"][0]["id"] == champion and final["standings"][0]["rank"] == 1
    assert [s["rank"] for s in final["standings"]] == [1, 2, 3, 3, 5, 5, 5, 5]
    games = [g for r in final["schedule"] for g in r["games"]]
    assert all(g["match"] is not None and g["result"] is not None for g in games)
