"""Correspondence over the API on a real server: a room of days per move (a "day" of 4 s
here, the ``correspondence_day`` knob), rated in its own pool, the players' "your turn" list
(``GET /api/players/{id}/games``, only with the identity's secret), and a missed deadline
that ends the game on time as a flag does."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.support.live_server import LiveServer


async def identity(http: httpx.AsyncClient, name: str) -> dict[str, Any]:
    made = await http.post("/api/players", json={"name": name})
    assert made.status_code == 201
    body: dict[str, Any] = made.json()
    return body


async def games_of(http: httpx.AsyncClient, player: dict[str, Any]) -> list[dict[str, Any]]:
    got = await http.get(
        f"/api/players/{player['player_id']}/games",
        headers={"Authorization": f"Bearer {player['secret']}"},
    )
    assert got.status_code == 200 and got.headers["cache-control"] == "no-store"
    games: list[dict[str, Any]] = got.json()["games"]
    return games


async def test_a_correspondence_game_is_listed_by_turn_and_ends_at_its_deadline(
    make_server: Callable[..., LiveServer], connect: Any
) -> None:
    server = make_server(correspondence_day=4.0, deadline_scan=0.2)
    async with httpx.AsyncClient(base_url=server.url) as http:
        ada, grace = await identity(http, "Ada"), await identity(http, "Grace")
        made = await http.post("/api/rooms", json={"time_control": {"days": 1}, "rated": True})
        assert made.status_code == 201
        room = made.json()
        assert room["pool"] == "classic.correspondence"
        assert room["time_control"] == {
            "initial": 4.0,
            "increment": 0.0,
            "first_move": 4.0,
            "days": 1,
        }
        x, o = await connect(server, room["room_id"]), await connect(server, room["room_id"])
        for client, player in ((x, ada), (o, grace)):
            credentials = {"id": player["player_id"], "secret": player["secret"]}
            assert (await client.join(player=credentials))["type"] == "welcome"
        assert (await x.move(1, 1))["type"] == "move_ok"
        await o.seen(x.version)
        ada_games, grace_games = await games_of(http, ada), await games_of(http, grace)
        assert [(g["room_id"], g["your_turn"]) for g in ada_games] == [(room["room_id"], False)]
        assert [(g["mark"], g["your_turn"]) for g in grace_games] == [("O", True)]
        assert 0 < grace_games[0]["time_left"] <= 4.0 and grace_games[0]["opponents"] == ["Ada"]
        assert (await o.move(0, 0))["type"] == "move_ok"
        await x.seen(o.version)
        assert (await games_of(http, ada))[0]["your_turn"]
        ended = await o.until("game_over")  # Ada lets her day pass
        assert ended["outcome"]["reason"] == "timeout" and ended["outcome"]["winner"] == "O"
        assert await games_of(http, ada) == [] and await games_of(http, grace) == []
        wrong = await http.get(
            f"/api/players/{ada['player_id']}/games",
            headers={"Authorization": f"Bearer {grace['secret']}"},
        )
        assert wrong.status_code == 401 and wrong.json()["code"] == "bad_identity"


@pytest.mark.parametrize(
    ("time_control", "field"),
    [({"days": 5}, "time_control.days"), ({"days": 1, "initial": 60}, "time_control.initial")],
)
async def test_days_per_move_other_than_1_2_3_or_7_are_refused(
    server: LiveServer, time_control: dict[str, Any], field: str
) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        made = await http.post("/api/rooms", json={"time_control": time_control})
    assert made.status_code == 422
    assert (made.json()["code"], made.json()["field"]) == ("invalid_options", field)


async def test_a_bot_plays_correspondence_too(
    make_server: Callable[..., LiveServer], connect: Any
) -> None:
    server = make_server(bot_pool="thread")  # no process pool to start for one bot move
    room_id = await server.create_room(bot="bot:perfect", time_control={"days": 3})
    human = await connect(server, room_id)
    assert (await human.join())["type"] == "welcome"
    assert (await human.move(1, 1))["type"] == "move_ok"
    answer = await human.until("moved", mark="O")
    assert answer["clock"]["days"] == 3 and answer["clock"]["remaining"]["O"] == 3 * 86400


async def test_a_tournament_refuses_days_per_move(server: LiveServer) -> None:
    async with httpx.AsyncClient(base_url=server.url) as http:
        ada = await identity(http, "Ada")
        made = await http.post(
            "/api/tournaments",
            json={
                "player": {"id": ada["player_id"], "secret": ada["secret"]},
                "time_control": {"days": 1},
            },
        )
    assert made.status_code == 422
    assert (made.json()["code"], made.json()["field"]) == ("invalid_options", "time_control.days")
