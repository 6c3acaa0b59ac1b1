"""``POST /api/players``, ``GET`` and ``PATCH /api/players/{id}`` on a real server: an identity
issued with its secret once, read by anyone without it, renamed only with it (an unknown id and
a wrong secret answered alike), names checked as seats' are, and newcomers refused while the
worker is overloaded."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from server.guards.admission import WINDOW
from tests.server.guards.test_admission import overloaded
from tests.support.live_server import LiveServer


async def create(server: LiveServer, body: Any = None, **headers: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.url) as http:
        if body is None:  # no body at all: a nameless guest
            headers.setdefault("Content-Type", "application/json")
            return await http.post("/api/players", headers=headers)
        return await http.post("/api/players", json=body, headers=headers)


async def read(server: LiveServer, player_id: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=server.url) as http:
        return await http.get(f"/api/players/{player_id}")


async def rename(
    server: LiveServer, player_id: str, body: Any, secret: str | None, **headers: str
) -> httpx.Response:
    if secret is not None:
        headers.setdefault("Authorization", f"Bearer {secret}")
    async with httpx.AsyncClient(base_url=server.url) as http:
        return await http.patch(f"/api/players/{player_id}", json=body, headers=headers)


async def test_an_identity_is_issued_once_with_its_secret_and_read_without_it(
    server: LiveServer,
) -> None:
    made = await create(server, {"name": "  Ada  "})
    assert made.status_code == 201 and made.headers["cache-control"] == "no-store"
    body = made.json()
    assert set(body) == {"player_id", "secret", "name", "created", "bot"}
    assert body["bot"] is False  # a person's identity (bot accounts: POST /api/bots)
    assert body["name"] == "Ada" and isinstance(body["created"], float)
    assert re.fullmatch(r"[A-Za-z0-9_-]{16}", body["player_id"])
    assert re.fullmatch(r"[A-Za-z0-9_-]{43}", body["secret"])
    got = await read(server, body["player_id"])
    assert got.status_code == 200 and got.headers["cache-control"] == "no-store"
    assert got.json() == {
        "player_id": body["player_id"],
        "name": "Ada",
        "created": body["created"],
        "bot": False,
        "ratings": {},  # rated in no pool yet
        "recent_games": [],
    }
    assert body["secret"] not in got.text
    assert "hash" not in got.text and '"h"' not in got.text


@pytest.mark.parametrize("body", [None, {}, {"name": None}])
async def test_an_identity_without_a_name_is_a_neutral_guest(
    server: LiveServer, body: dict[str, Any] | None
) -> None:
    made = await create(server, body)
    assert made.status_code == 201, made.text
    assert re.fullmatch(r"Guest [0-9]{4}", made.json()["name"])


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("x" * 33, "1 to 32 characters"),
        ("   ", "1 to 32 characters"),
        ("Ada\nLovelace", "control characters"),
        ("Ada\u200b", "control characters"),
        (42, "must be a string"),
    ],
)
async def test_a_bad_name_is_a_422_naming_the_field(
    server: LiveServer, name: object, says: str
) -> None:
    made = await create(server, {"name": name})
    assert made.status_code == 422
    assert made.json()["code"] == "invalid_name" and made.json()["field"] == "name"
    assert says in made.json()["message"]
    player = (await create(server, {"name": "Ada"})).json()
    renamed = await rename(server, player["player_id"], {"name": name}, player["secret"])
    assert renamed.status_code == 422
    assert (renamed.json()["code"], renamed.json()["field"]) == ("invalid_name", "name")
    assert (await read(server, player["player_id"])).json()["name"] == "Ada"


async def test_a_body_that_is_not_an_object_of_known_fields_is_a_400(server: LiveServer) -> None:
    bodies: list[Any] = [[], "Ada", {"name": "Ada", "secret": "mine"}]
    for body in bodies:
        made = await create(server, body)
        assert made.status_code == 400 and made.json()["code"] == "bad_message"


async def test_the_holder_renames_and_everyone_reads_the_new_name(server: LiveServer) -> None:
    player = (await create(server, {"name": "Ada"})).json()
    renamed = await rename(server, player["player_id"], {"name": "Ada Lovelace"}, player["secret"])
    assert renamed.status_code == 200 and renamed.headers["cache-control"] == "no-store"
    assert renamed.json() == {
        "player_id": player["player_id"],
        "name": "Ada Lovelace",
        "created": player["created"],
        "bot": False,
    }
    assert (await read(server, player["player_id"])).json()["name"] == "Ada Lovelace"


async def test_a_wrong_secret_and_an_unknown_id_get_the_same_401(server: LiveServer) -> None:
    player = (await create(server, {"name": "Ada"})).json()
    other = (await create(server, {"name": "Mallory"})).json()
    stranger = secrets.token_urlsafe(12)
    answers = {
        "wrong secret": await rename(server, player["player_id"], {"name": "X"}, other["secret"]),
        "unknown id": await rename(server, stranger, {"name": "X"}, player["secret"]),
        "no header": await rename(server, player["player_id"], {"name": "X"}, None),
        "basic": await rename(
            server, player["player_id"], {"name": "X"}, None, Authorization="Basic YWRhOmFkYQ=="
        ),
    }
    for why, answer in answers.items():
        assert answer.status_code == 401, why
        assert answer.json()["code"] == "bad_identity", why
        assert answer.headers["www-authenticate"].startswith("Bearer"), why
    wrong, unknown = answers["wrong secret"].json(), answers["unknown id"].json()
    assert wrong["message"].replace(player["player_id"], "ID") == unknown["message"].replace(
        stranger, "ID"
    )
    assert (await read(server, player["player_id"])).json()["name"] == "Ada"


@pytest.mark.parametrize("player_id", ["AAAAAAAAAAAAAAAA", "short", "x" * 80])
async def test_an_unknown_id_is_a_404(server: LiveServer, player_id: str) -> None:
    got = await read(server, player_id)
    assert got.status_code == 404 and got.json()["code"] == "player_not_found"


async def test_writes_pass_the_write_guard(server: LiveServer) -> None:
    player = (await create(server, {"name": "Ada"})).json()
    evil = {"Origin": "https://evil.example"}
    assert (await create(server, {"name": "Eve"}, **evil)).status_code == 403
    cross = await rename(server, player["player_id"], {"name": "Eve"}, player["secret"], **evil)
    assert cross.status_code == 403 and cross.json()["code"] == "origin_not_allowed"
    async with httpx.AsyncClient(base_url=server.url) as http:
        plain = await http.patch(
            f"/api/players/{player['player_id']}",
            content=b'{"name": "Eve"}',
            headers={"Authorization": f"Bearer {player['secret']}", "Content-Type": "text/plain"},
        )
        assert plain.status_code == 415
        other = await http.delete(f"/api/players/{player['player_id']}")
        assert other.status_code == 405 and set(other.headers["allow"].split(", ")) >= {
            "GET",
            "PATCH",
        }
    assert (await read(server, player["player_id"])).json()["name"] == "Ada"


async def test_an_overloaded_worker_refuses_new_identities_not_renames(
    make_server: Callable[..., LiveServer],
) -> None:
    server = make_server()
    player = (await create(server, {"name": "Ada"})).json()
    with overloaded(server):
        refused = await create(server, {"name": "Newcomer"})
        assert refused.status_code == 503 and refused.json()["code"] == "unavailable"
        assert refused.json()["retry_after"] == WINDOW and refused.headers["retry-after"] == "1"
        renamed = await rename(server, player["player_id"], {"name": "Ada L"}, player["secret"])
        assert renamed.status_code == 200
    assert (await create(server, {"name": "Newcomer"})).status_code == 201
