"""Seats linked to guest identities over the real protocol: a ``join`` with a valid ``player``
links its seat (everyone sees the ``player_id``), an invalid one is refused with
``bad_identity`` and seats nothing, a rematch keeps the links, spectators and resumes ignore
it; quick play takes one too."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

import httpx

from tests.support.live_server import LiveServer


async def identity(server: LiveServer, name: str | None = None) -> dict[str, Any]:
    """A new identity: ``{"id", "secret", "name"}``, as a join's ``player`` plus its name."""
    async with httpx.AsyncClient(base_url=server.url) as http:
        made = await http.post("/api/players", json={"name": name} if name else {})
    assert made.status_code == 201, made.text
    body = made.json()
    return {"id": body["player_id"], "secret": body["secret"], "name": body["name"]}


def credentials(player: dict[str, Any]) -> dict[str, str]:
    return {"id": player["id"], "secret": player["secret"]}


def linked(state: dict[str, Any]) -> list[tuple[str, str, str | None]]:
    return [(p["mark"], p["name"], p["player_id"]) for p in state["players"]]


async def test_a_valid_identity_links_the_seat_for_everyone_to_see(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    ada, grace = await identity(server, "Ada"), await identity(server, "Grace")
    room_id = await server.create_room()
    x, o, watcher = [await connect(server, room_id) for _ in range(3)]
    welcome = await x.join(player=credentials(ada))  # no name: the identity's
    assert welcome["type"] == "welcome" and welcome["mark"] == "X"
    assert linked(welcome["state"]) == [("X", "Ada", ada["id"])]
    joined = await o.join(name="Grace Hopper", player=credentials(grace))  # a name wins
    assert linked(joined["state"]) == [
        ("X", "Ada", ada["id"]),
        ("O", "Grace Hopper", grace["id"]),
    ]
    heard = await x.until("player_joined")
    assert (heard["player"]["name"], heard["player"]["player_id"]) == ("Grace Hopper", grace["id"])
    watching = await watcher.join("spectator")
    assert linked(watching["state"]) == linked(joined["state"])
    assert linked(await server.snapshot(room_id)) == linked(joined["state"])
    for message in (welcome, joined, watching):  # the secret never comes back
        assert ada["secret"] not in str(message) and grace["secret"] not in str(message)


async def test_an_invalid_identity_is_refused_and_seats_nothing(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    ada = await identity(server, "Ada")
    room_id = await server.create_room()
    before = await server.stored(room_id)
    client = await connect(server, room_id)
    for wrong in (
        {"id": ada["id"], "secret": secrets.token_urlsafe(32)},
        {"id": secrets.token_urlsafe(12), "secret": ada["secret"]},
        {"id": "not-an-id", "secret": "x"},
    ):
        refused = await client.join(player=wrong, id="j1")
        assert (refused["type"], refused["code"], refused["ref"]) == ("error", "bad_identity", "j1")
        assert wrong["secret"] not in refused["message"]
    assert await server.stored(room_id) == before, "a refused join changed the room"
    # the connection stays open: an honest mistake; joining as a guest works on it
    guest = await client.join(name="Guest")
    assert guest["type"] == "welcome" and linked(guest["state"]) == [("X", "Guest", None)]


async def test_spectators_and_resumes_ignore_the_identity(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    ada = await identity(server, "Ada")
    room_id = await server.create_room()
    x = await connect(server, room_id)
    token = (await x.join(player=credentials(ada)))["token"]
    bogus = {"id": secrets.token_urlsafe(12), "secret": secrets.token_urlsafe(32)}
    watcher = await connect(server, room_id)
    assert (await watcher.join("spectator", player=bogus))["type"] == "welcome"
    await x.close()
    back = await connect(server, room_id)
    resumed = await back.join(token=token, player=bogus)
    assert resumed["type"] == "welcome" and resumed["mark"] == "X"
    assert linked(resumed["state"]) == [("X", "Ada", ada["id"])]


async def test_a_rematch_keeps_the_links_with_their_players(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    ada, grace = await identity(server, "Ada"), await identity(server, "Grace")
    room_id = await server.create_room()
    x, o = await connect(server, room_id), await connect(server, room_id)
    await x.join(player=credentials(ada))
    await o.join(player=credentials(grace))
    for mover, (row, col) in [(x, (0, 0)), (o, (1, 0)), (x, (0, 1)), (o, (1, 1)), (x, (0, 2))]:
        await mover.seen(max(x.version, o.version))
        assert (await mover.move(row, col))["type"] == "move_ok"
    assert (await x.act("rematch"))["type"] == "ack"
    assert (await o.act("rematch"))["type"] == "ack"
    new_game = await x.until("new_game")
    assert linked(new_game) == [("X", "Grace", grace["id"]), ("O", "Ada", ada["id"])]
    snapshot = await server.snapshot(room_id)
    assert linked(snapshot) == linked(new_game)
    assert snapshot["games"][0]["players"] == [
        {"mark": "X", "name": "Ada", "player_id": ada["id"]},
        {"mark": "O", "name": "Grace", "player_id": grace["id"]},
    ]


async def test_quick_play_links_the_seat_it_takes(server: LiveServer) -> None:
    ada = await identity(server, "Ada")
    body = {"rules": {"rows": 7, "cols": 11}, "join_key": secrets.token_urlsafe(16)}
    async with httpx.AsyncClient(base_url=server.url) as http:
        malformed = await http.post("/api/quickplay", json={**body, "player": ada["id"]})
        assert malformed.status_code == 400 and malformed.json()["code"] == "bad_message"
        assert "player must be an object" in malformed.json()["message"]
        wrong = {"id": ada["id"], "secret": secrets.token_urlsafe(32)}
        refused = await http.post("/api/quickplay", json={**body, "player": wrong})
        assert refused.status_code == 401 and refused.json()["code"] == "bad_identity"
        seated = await http.post("/api/quickplay", json={**body, "player": credentials(ada)})
    assert seated.status_code == 200, seated.text
    answer = seated.json()
    snapshot = await server.snapshot(answer["room_id"])
    # Had the refused request (same join_key) taken a seat, this one would have taken that
    # seat again, unlinked and named as a guest.
    assert (answer["mark"], "Ada", ada["id"]) in linked(snapshot)


async def test_an_identity_made_on_one_worker_works_on_another(
    redis_url: str, make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    """Two workers on one Redis: the directory is shared like the rooms."""
    one = make_server(store_url=redis_url, bot_pool="thread")
    two = make_server(store_url=redis_url, bot_pool="thread")
    ada = await identity(one, "Ada")
    room_id = await one.create_room()
    x = await connect(two, room_id)
    assert linked((await x.join(player=credentials(ada)))["state"]) == [("X", "Ada", ada["id"])]
    async with httpx.AsyncClient() as http:
        renamed = await http.patch(
            f"{two.url}/api/players/{ada['id']}",
            json={"name": "Ada L"},
            headers={"Authorization": f"Bearer {ada['secret']}"},
        )
        assert renamed.status_code == 200
        read = await http.get(f"{one.url}/api/players/{ada['id']}")
    assert read.json()["name"] == "Ada L"
