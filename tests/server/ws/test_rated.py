"""Rated games over the real protocol: a rated room seats two different identities, refuses
takebacks, and at the game's end both ratings change once, announced by one ``rated`` event;
the player page and the leaderboard show them. On two workers sharing one Redis, both of
which see the end, and with the end applied once more by a third party, the ratings still
change once."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx

from core.glicko2 import Rating, rate_game
from rooms import BackendOptions, open_backend
from tests.server.ws.test_identity import credentials, identity
from tests.support.live_server import LiveServer
from tests.support.ws_client import Client

POOL = "classic.untimed"


async def create_rated(server: LiveServer, **fields: Any) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.url) as http:
        return await http.post("/api/rooms", json={"rules": {}, "rated": True, **fields})


async def get(server: LiveServer, path: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.url) as http:
        return await http.get(path)


async def play(x: Client, o: Client, cells: list[tuple[int, int]]) -> None:
    """X and O take turns on ``cells``, each against the other's latest move."""
    for turn, (row, col) in enumerate(cells):
        mover = (x, o)[turn % 2]
        await mover.seen(max(x.version, o.version))
        assert (await mover.move(row, col))["type"] == "move_ok"


async def play_x_wins(x: Client, o: Client) -> None:
    await play(x, o, [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)])


async def test_a_rated_room_is_refused_for_unrated_rules_and_bots(server: LiveServer) -> None:
    for fields, code, status in (
        ({"rules": {"misere": True}}, "not_rated", 422),
        ({"rules": {"rows": 4, "cols": 4}}, "not_rated", 422),
        ({"bot": "bot:easy"}, "not_rated", 422),
        ({"rated": "yes"}, "bad_message", 400),
    ):
        refused = await create_rated(server, **fields)
        assert (refused.status_code, refused.json()["code"]) == (status, code), fields
    made = await create_rated(server, time_control={"initial": 60, "increment": 1})
    assert made.status_code == 201
    assert (made.json()["rated"], made.json()["pool"]) == (True, "classic.blitz")


async def test_a_rated_game_to_its_end_rates_both_players_once(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    ada, bob = await identity(server, "Ada"), await identity(server, "Bob")
    made = await create_rated(server)
    assert made.status_code == 201 and made.json()["pool"] == POOL
    room_id = made.json()["room_id"]
    x, o = await connect(server, room_id), await connect(server, room_id)
    before = await server.stored(room_id)
    refused = await x.join(name="Guest")
    assert (refused["type"], refused["code"]) == ("error", "identity_required")
    assert await server.stored(room_id) == before and not x.done
    welcome = await x.join(player=credentials(ada))
    assert welcome["state"]["rated"] is True and welcome["state"]["pool"] == POOL
    before = await server.stored(room_id)
    twice = await o.join(player=credentials(ada))
    assert (twice["type"], twice["code"]) == ("error", "identity_seated")
    assert await server.stored(room_id) == before and not o.done
    assert (await o.join(player=credentials(bob)))["type"] == "welcome"
    await play(x, o, [(2, 2), (1, 1)])
    await x.seen(o.version)
    before = await server.stored(room_id)
    assert (await x.act("takeback"))["code"] == "rated_game"
    assert await server.stored(room_id) == before
    await play(x, o, [(2, 1), (0, 0), (2, 0)])  # three in the bottom row: X wins
    rated = await o.until("rated")
    assert rated == await x.until("rated")
    won, lost = rate_game(Rating(), Rating(), 1.0)
    change = rated["rating_change"]
    assert (change["X"]["player_id"], change["O"]["player_id"]) == (ada["id"], bob["id"])
    assert (change["X"]["before"], change["X"]["after"]) == (1500.0, round(won.rating, 1))
    assert (change["O"]["before"], change["O"]["after"]) == (1500.0, round(lost.rating, 1))
    assert change["X"]["provisional"] is True and rated["pool"] == POOL
    assert (await server.snapshot(room_id))["rating_change"]["rating_change"] == change

    page = (await get(server, f"/api/players/{ada['id']}")).json()
    standing = page["ratings"][POOL]
    assert standing["games"] == 1 and standing["rating"] == round(won.rating, 1)
    assert standing["provisional"] is True and 0 < standing["volatility"] < 0.1
    assert [(h["room_id"], h["game_number"]) for h in standing["history"]] == [(room_id, 1)]
    record = page["recent_games"][0]["record"]
    assert record == f"/api/rooms/{room_id}/record.txt?game=1"
    assert "Ada" in (await get(server, record)).text

    board = (await get(server, f"/api/leaderboards/{POOL}?around={bob['id']}")).json()
    ids = {row["player_id"] for row in board["top"]}
    assert ada["id"] not in ids and bob["id"] not in ids  # provisional: not on the board
    assert board["around"]["rank"] is None and board["around"]["provisional"] is True
    assert board["around"]["rating"] == round(lost.rating, 1)
    assert board["around"]["games_to_rank"] > 0
    apart = {row["player_id"]: row for row in board["provisional"]}  # listed, unranked
    assert apart[ada["id"]]["rank"] is None and apart[ada["id"]]["name"] == "Ada"
    assert apart[ada["id"]]["games_to_rank"] == apart[bob["id"]]["games_to_rank"] > 0
    missing = await get(server, "/api/leaderboards/classic.bullet")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")
    too_many = await get(server, f"/api/leaderboards/{POOL}?limit=1000")
    assert too_many.json()["code"] == "bad_message"


async def test_two_workers_and_a_retry_change_the_ratings_once(
    redis_url: str, make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    first, second = (make_server(store_url=redis_url, bot_pool="thread") for _ in range(2))
    ada, bob = await identity(first, "Ada"), await identity(second, "Bob")
    room_id = (await create_rated(first)).json()["room_id"]
    x, o = await connect(first, room_id), await connect(second, room_id)  # a worker each
    await x.join(player=credentials(ada))
    await o.join(player=credentials(bob))
    await play_x_wins(x, o)
    rated = await x.until("rated")
    assert rated == await o.until("rated")
    # The end applied once more, by a third party on the same Redis: the marker answers.
    backend = open_backend(redis_url, BackendOptions())
    await backend.open()
    try:
        entry = {
            "game_number": 1,
            "pool": POOL,
            "marks": ["X", "O"],
            "players": [ada["id"], bob["id"]],
            "score": 1.0,
        }
        assert await backend.ratings.apply(entry, room_id) == rated["rating_change"]
    finally:
        await backend.close()
    for worker in (first, second):
        page = (await get(worker, f"/api/players/{ada['id']}")).json()
        assert page["ratings"][POOL]["games"] == 1
        assert len(page["ratings"][POOL]["history"]) == 1
    assert [e["type"] for e in x.events].count("rated") == 1


async def test_the_leaderboard_ranks_established_players_with_their_names(
    server: LiveServer,
) -> None:
    ada, bob, cyd = [await identity(server, name) for name in ("Ada", "Bob", "Cyd")]
    book = server.app.state.tictactoe.backend.ratings  # the server's own (memory) book
    pool = "gomoku.rapid"  # a pool no other test of this server plays in
    for game in range(1, 15):  # 14 games (one in three won by Ada): both established
        entry = {
            "game_number": game,
            "pool": pool,
            "marks": ["X", "O"],
            "players": [ada["id"], bob["id"]],
            "score": 0.5 if game % 3 else 1.0,
        }
        await book.apply(entry, "seeded01")
    await book.apply({**entry, "players": [cyd["id"], bob["id"]], "game_number": 99}, "seeded01")
    board = (await get(server, f"/api/leaderboards/{pool}?around={bob['id']}&limit=5")).json()
    assert [(r["rank"], r["name"], r["provisional"]) for r in board["top"]] == [
        (1, "Ada", False),
        (2, "Bob", False),
    ]
    assert board["top"][0]["games"] == 14 and board["top"][0]["rating"] > 1500
    around = board["around"]
    assert (around["rank"], around["games"]) == (2, 15)
    assert [r["player_id"] for r in around["neighbours"]] == [ada["id"], bob["id"]]
    assert [(r["rank"], r["name"]) for r in board["provisional"]] == [(None, "Cyd")]
    assert board["top"][0]["games_to_rank"] == 0 and board["provisional"][0]["games_to_rank"] > 0
    newcomer = (await get(server, f"/api/leaderboards/{pool}?around={cyd['id']}")).json()
    assert newcomer["around"]["rank"] is None and newcomer["around"]["provisional"] is True
    unknown = await get(server, f"/api/leaderboards/{pool}?around=nobody")
    assert (unknown.status_code, unknown.json()["code"]) == (404, "player_not_found")
