"""The guest identity in real Chromium: the first seat makes one (no account, no password),
every seat this browser takes links to it, the lobby says it lives in this browser only and
gives a link that carries it to another device, where it is taken over after a question."""

from __future__ import annotations

import json
import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import button, custom_game, role_badge, seat
from tests.support.live_server import LiveServer

pytestmark = pytest.mark.e2e


def _identity(page: Any) -> dict[str, str] | None:
    kept = page.evaluate("() => localStorage.getItem('ttt.identity')")
    return json.loads(kept) if kept else None


def _players(live_server: LiveServer, room: str) -> dict[str, Any]:
    snapshot = httpx.get(f"{live_server.url}/api/rooms/{room}").json()
    return {p["mark"]: p for p in snapshot["players"]}


def test_seats_link_to_the_identity_and_a_link_carries_it_elsewhere(
    new_page: Any, create_room: Any, live_server: LiveServer, screenshot: Any
) -> None:
    ada = new_page(name="Ada", permissions=["clipboard-read", "clipboard-write"])
    ada.goto("/")
    custom_game(ada)
    card = ada.locator(".identity-card")
    expect(card).to_contain_text("No identity yet")
    button(ada, "Create game").click()
    expect(role_badge(ada)).to_have_text("You play X")
    identity = _identity(ada)
    assert identity is not None and len(identity["secret"]) >= 22  # >= 128 bits
    public = httpx.get(f"{live_server.url}/api/players/{identity['id']}").json()
    assert public["name"] == "Ada" and "secret" not in json.dumps(public)
    room = ada.url.rstrip("/").rsplit("/", 1)[-1]
    assert _players(live_server, room)["X"]["player_id"] == identity["id"]

    grace = new_page(name="Grace")
    seat(grace, room, "O")  # an invitee: her first seat makes her identity
    graces = _identity(grace)
    assert graces is not None and graces["id"] != identity["id"]
    assert _players(live_server, room)["O"]["player_id"] == graces["id"]

    # the lobby says where the identity lives, and copies its link
    ada.goto("/")
    expect(card).to_contain_text("You play as Ada")
    expect(card).to_contain_text("lives in this browser only")
    screenshot(ada, "lobby-identity")
    button(ada, "Copy link for another device").click()
    expect(card.get_by_role("status")).to_contain_text("Link copied")
    link = ada.evaluate("() => navigator.clipboard.readText()")
    assert link == f"{live_server.url}/#identity={identity['id']}.{identity['secret']}"

    # Ada's other device: asked first; the secret leaves the address bar either way
    other = new_page(name="Someone")
    other.goto(link.removeprefix(live_server.url))
    other_card = other.locator(".identity-card")
    expect(other_card).to_contain_text("This link carries a player identity")
    button(other, "Use this identity").click()
    expect(other_card.get_by_role("status")).to_contain_text("now plays as Ada")
    assert "identity=" not in other.url
    assert _identity(other) == identity
    expect(other.get_by_role("textbox", name="Your name", exact=True)).to_have_value("Ada")


def test_a_link_with_a_wrong_secret_is_refused_and_nothing_changes(
    new_page: Any, live_server: LiveServer
) -> None:
    made = httpx.post(f"{live_server.url}/api/players", json={"name": "Real"}).json()
    page = new_page(name="Mallory")
    page.goto(f"/#identity={made['player_id']}.{'x' * 43}")
    button(page, "Use this identity").click()
    expect(page.locator(".identity-card").get_by_role("status")).to_contain_text("cannot be used")
    assert _identity(page) is None
    assert "identity=" not in page.url


def test_a_new_name_in_the_lobby_is_the_identitys_name(
    new_page: Any, create_room: Any, live_server: LiveServer
) -> None:
    page = new_page(name="Ada")
    seat(page, create_room(), "X")
    identity = _identity(page)
    assert identity is not None
    page.goto("/")
    field = page.get_by_role("textbox", name="Your name", exact=True)
    field.fill("Ada Lovelace")
    field.press("Tab")  # the change is committed when the field is left
    expect(page.locator(".identity-card")).to_contain_text("You play as Ada Lovelace")
    url = f"{live_server.url}/api/players/{identity['id']}"
    assert httpx.get(url).json()["name"] == "Ada Lovelace"


def test_quick_play_seats_link_to_each_players_identity(
    new_page: Any, live_server: LiveServer
) -> None:
    pages = []
    for name in ("Ada", "Bob"):
        page = new_page(name=name)
        page.goto("/")
        custom_game(page)
        page.get_by_role("radio", name=re.compile("^Custom")).check()
        page.get_by_role("spinbutton", name="Rows").fill("5")
        page.get_by_role("spinbutton", name="Columns").fill("6")  # a game nobody else waits for
        page.get_by_role("button", name="Quick play").click()
        expect(page).to_have_url(re.compile(r"/r/[^/]+$"))
        pages.append(page)
    for page in pages:
        expect(role_badge(page)).to_have_text(re.compile("^You play [XO]$"))
    room = pages[0].url.rstrip("/").rsplit("/", 1)[-1]
    linked = {p["player_id"] for p in _players(live_server, room).values()}
    mine = {identity["id"] for identity in map(_identity, pages) if identity is not None}
    assert len(mine) == 2 and linked == mine
