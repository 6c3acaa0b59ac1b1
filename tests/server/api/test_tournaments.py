"""Tournaments over a real server: created, joined, a bot added and started over HTTP; three
scripted players with identities follow ``/ws/t/{id}``, are sent to each game's room by
``your_game``, take their seats with their identity and play it out; every pairing is played
once with colours balanced, and the standings are core.tournament's from the results."""

from __future__ import annotations

import asyncio
import csv
import io
import re
import time
from collections import Counter
from itertools import combinations
from typing import Any

import httpx

from core import Tournament
from rooms.room.record import parse_record
from tests.support.live_server import LiveServer
from tests.support.ws_client import WAIT, Client


async def post(server: LiveServer, path: str, body: dict[str, Any]) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.url) as http:
        return await http.post(path, json=body)


async def get(server: LiveServer, path: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.url) as http:
        return await http.get(path)


async def identity(server: LiveServer, name: str) -> dict[str, str]:
    made = (await post(server, "/api/players", {"name": name})).json()
    return {"id": made["player_id"], "secret": made["secret"]}


async def next_message(client: Client, match: Any) -> dict[str, Any]:
    """The next ``tournament`` message (after those taken) that ``match`` accepts."""
    deadline = time.monotonic() + WAIT
    seen = 0
    while time.monotonic() < deadline:
        for message in client.log[seen:]:
            seen += 1
            if message["type"] == "tournament" and match(message):
                return message
        await asyncio.sleep(0.02)
    raise AssertionError(f"no such tournament message; last: {client.log[-1:]}")


async def play_every_game(
    server: LiveServer, player: dict[str, str], follow: Client, done: tuple[str, ...] = ()
) -> int:
    """Go to each game ``your_game`` names (but the rooms ``done``); resign as O or against a
    bot, else wait it out. The number of games played."""
    played: set[str] = set(done)
    while True:
        message = await next_message(
            follow,
            lambda m: (
                m["status"] == "finished"
                or (m["your_game"] is not None and m["your_game"]["room_id"] not in played)
            ),
        )
        if message["status"] == "finished":
            return len(played) - len(done)
        room_id = message["your_game"]["room_id"]
        played.add(room_id)
        room = await Client.open(server, room_id)
        try:
            welcome = await room.join(player=player)
            assert welcome["type"] == "welcome", welcome
            players = welcome["state"]["players"]
            against_bot = any(p.get("bot") for p in players)
            if welcome["mark"] == "O" or against_bot:
                assert (await room.act("resign"))["type"] == "ack"
            if welcome["state"]["status"] != "finished":  # the opponent may have resigned
                await room.until("game_over")
        finally:
            await room.close()


async def test_a_round_robin_of_four_is_played_through(server: LiveServer) -> None:
    ada, bob, cy = [await identity(server, name) for name in ("Ada", "Bob", "Cy")]
    made = await post(
        server,
        "/api/tournaments",
        {"name": "Club night", "max_players": 4, "player": ada,
         "time_control": {"initial": 60, "first_move": 20}},
    )  # fmt: skip
    assert made.status_code == 201, made.text
    tournament = made.json()
    tid = tournament["tournament_id"]
    assert tournament["status"] == "open" and [e["id"] for e in tournament["entrants"]] == [
        ada["id"]
    ]
    listed = (await get(server, "/api/tournaments")).json()["tournaments"]
    assert tid in [t["tournament_id"] for t in listed]
    for player in (bob, cy):
        assert (await post(server, f"/api/tournaments/{tid}/join", {"player": player})).is_success
    not_creator = await post(server, f"/api/tournaments/{tid}/start", {"player": bob})
    assert (not_creator.status_code, not_creator.json()["code"]) == (403, "not_creator")
    wrong = await post(
        server, f"/api/tournaments/{tid}/join", {"player": {**bob, "secret": "x" * 43}}
    )
    assert (wrong.status_code, wrong.json()["code"]) == (401, "bad_identity")
    bot = await post(server, f"/api/tournaments/{tid}/bots", {"player": ada, "level": "random"})
    assert bot.is_success and len(bot.json()["entrants"]) == 4
    full = await post(server, f"/api/tournaments/{tid}/bots", {"player": ada, "level": "random"})
    assert (full.status_code, full.json()["code"]) == (409, "tournament_full")
    missing = await get(server, "/api/tournaments/nothing-here")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")

    follows = [await Client.open(server, f"t/{tid}?player={p['id']}") for p in (ada, bob, cy)]
    watcher = await Client.open(server, f"t/{tid}")
    try:
        first = await next_message(watcher, lambda m: True)
        assert first["status"] == "open" and first["your_game"] is None
        started = await post(server, f"/api/tournaments/{tid}/start", {"player": ada})
        assert started.is_success and started.json()["status"] == "running"
        again = await post(server, f"/api/tournaments/{tid}/join", {"player": bob})
        assert again.status_code == 200, again.text  # an entrant joining again: no change
        assert again.json()["entrants"] == started.json()["entrants"]
        outsider = await identity(server, "Dee")
        late = await post(server, f"/api/tournaments/{tid}/join", {"player": outsider})
        assert (late.status_code, late.json()["code"]) == (409, "tournament_closed")
        counts = await asyncio.gather(
            *(play_every_game(server, p, f) for p, f in zip((ada, bob, cy), follows, strict=True))
        )
        assert counts == [3, 3, 3]
        final = await next_message(watcher, lambda m: m["status"] == "finished")
    finally:
        for client in (*follows, watcher):
            await client.close()

    answer = (await get(server, f"/api/tournaments/{tid}")).json()
    assert {**answer, "type": "tournament"} == final  # the socket's last word is the record
    games = [g for rnd in answer["schedule"] for g in rnd["games"]]
    ids = [e["id"] for e in answer["entrants"]]
    pairs = Counter(frozenset((g["first"], g["second"])) for g in games)
    assert set(pairs) == {frozenset(p) for p in combinations(ids, 2)} and set(pairs.values()) == {1}
    firsts, seconds = Counter(g["first"] for g in games), Counter(g["second"] for g in games)
    assert all(abs(firsts[i] - seconds[i]) <= 1 for i in ids)
    assert all(g["result"] is not None and g["forfeit"] is None for g in games)
    assert all(g["link"] == f"/r/{g['room_id']}" for g in games)
    table = Tournament(ids)
    for pairing in table.pairings:
        game = next(g for g in games if (g["first"], g["second"]) == pairing.players)
        table.record(pairing, None if game["result"] == "draw" else game["result"])
    names = {e["id"]: e["name"] for e in answer["entrants"]}
    assert answer["standings"] == [
        {**s.to_dict(), "name": names[s.name], "id": s.name} for s in table.standings()
    ]

    exported = await get(server, f"/api/tournaments/{tid}/results.csv")
    assert exported.headers["content-type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(exported.text)))
    assert rows[0][:3] == ["rank", "name", "points"]
    assert [r[1] for r in rows[1:5]] == [s["name"] for s in answer["standings"]]
    assert len([r for r in rows[6:] if r]) == 1 + len(games)

    records = await get(server, f"/api/tournaments/{tid}/games.txt")
    assert records.status_code == 200 and "attachment" in records.headers["content-disposition"]
    texts = re.split(r"\n(?=\[Event )", records.text)
    assert len(texts) == len(games)
    for text, game in zip(texts, games, strict=True):
        parsed = parse_record(text)  # what tictactoe play --replay reads: every move legal
        assert parsed.headers["Tournament"] == "Club night"
        assert parsed.headers["Room"] == game["room_id"]
        assert (parsed.headers["X"], parsed.headers["O"]) == (
            names[game["first"]],
            names[game["second"]],
        )
        won = "1-0" if game["result"] == game["first"] else "0-1"
        assert parsed.result == won and parsed.headers["Termination"] == "resignation"


async def test_a_result_reaches_the_live_socket_within_a_second(server: LiveServer) -> None:
    ada, bob = [await identity(server, name) for name in ("Ada", "Bob")]
    tid = (await post(server, "/api/tournaments", {"player": ada})).json()["tournament_id"]
    await post(server, f"/api/tournaments/{tid}/join", {"player": bob})
    follow = await Client.open(server, f"t/{tid}?player={bob['id']}")
    try:
        await post(server, f"/api/tournaments/{tid}/start", {"player": ada})
        message = await next_message(follow, lambda m: m["your_game"] is not None)
        room = await Client.open(server, message["your_game"]["room_id"])
        assert (await room.join(player=bob))["type"] == "welcome"
        resigned = time.monotonic()
        await room.act("resign")
        await room.close()
        done = await next_message(follow, lambda m: m["status"] == "finished")
        assert time.monotonic() - resigned < 1.0
        assert done["standings"][0]["id"] == ada["id"] and done["your_game"] is None
    finally:
        await follow.close()


async def test_an_arena_is_created_checked_and_taken_late_entrants(server: LiveServer) -> None:
    ada, bob = [await identity(server, name) for name in ("Ada", "Bob")]
    refused = {
        "kind": {"kind": "ladder"},
        "duration": {"kind": "arena"},
    }
    for field, body in refused.items():
        answer = await post(server, "/api/tournaments", {"player": ada, **body})
        assert answer.status_code == 422, answer.text
        assert answer.json()["code"] == "invalid_options" and answer.json()["field"] == field
    for duration in (5, 3 * 3600 + 1, "60", True):
        answer = await post(
            server, "/api/tournaments", {"player": ada, "kind": "arena", "duration": duration}
        )
        assert answer.json()["field"] == "duration", (duration, answer.text)
    answer = await post(server, "/api/tournaments", {"player": ada, "duration": 60})
    assert answer.json()["field"] == "duration"  # a round robin has no duration
    doubles: list[dict[str, Any]] = [
        {"double": "yes"},
        {"double": True, "kind": "arena", "duration": 60},
    ]
    for options in doubles:
        answer = await post(server, "/api/tournaments", {"player": ada, **options})
        assert answer.json()["field"] == "double", answer.text
    twice = await post(server, "/api/tournaments", {"player": ada, "double": True})
    assert twice.status_code == 201 and twice.json()["double"] is True

    made = await post(server, "/api/tournaments", {"player": ada, "kind": "arena", "duration": 600})
    assert made.status_code == 201
    arena = made.json()
    assert (arena["kind"], arena["duration"], arena["ends_at"]) == ("arena", 600, None)
    tid = arena["tournament_id"]
    listed = (await get(server, "/api/tournaments")).json()["tournaments"]
    assert any(t["tournament_id"] == tid and t["kind"] == "arena" for t in listed)
    started = (await post(server, f"/api/tournaments/{tid}/start", {"player": ada})).json()
    assert started["status"] == "running"  # alone: an arena starts and waits for entrants
    assert 599 <= started["ends_at"] - time.time() <= 600
    joined = (await post(server, f"/api/tournaments/{tid}/join", {"player": bob})).json()
    assert [e["id"] for e in joined["entrants"]] == [ada["id"], bob["id"]]
    follow = await Client.open(server, f"t/{tid}?player={bob['id']}")
    try:
        paired = await next_message(follow, lambda m: m["your_game"] is not None)
        game = paired["schedule"][0]["games"][0]
        assert {game["first"], game["second"]} == {ada["id"], bob["id"]}
        assert paired["your_game"]["room_id"] == game["room_id"]
    finally:
        await follow.close()


async def test_the_game_records_keep_a_game_whose_room_is_gone(server: LiveServer) -> None:
    ada, bob, cy = [await identity(server, name) for name in ("Ada", "Bob", "Cy")]
    tid = (await post(server, "/api/tournaments", {"player": ada})).json()["tournament_id"]
    for player in (bob, cy):
        await post(server, f"/api/tournaments/{tid}/join", {"player": player})
    await post(server, f"/api/tournaments/{tid}/start", {"player": ada})
    await post(server, f"/api/tournaments/{tid}/withdraw", {"player": cy})  # forfeits, no room
    records = (await get(server, f"/api/tournaments/{tid}/games.txt")).text
    forfeited = [parse_record(t) for t in re.split(r"\n(?=\[Event )", records) if "Forfeit" in t]
    assert forfeited  # her games without a room yet (one in round 1 may be under way)
    for parsed in forfeited:
        assert parsed.headers["Forfeit"] == "Cy" and not parsed.moves
        assert parsed.headers["Note"] == "forfeited before it was played: no moves kept"
        assert parsed.result in {"1-0", "0-1"} and parsed.headers["Termination"] == "forfeit"
    missing = await get(server, "/api/tournaments/nothing-here/games.txt")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
