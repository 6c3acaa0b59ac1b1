"""Tournaments and ratings as a player reads them, in real Chromium: every chip of the
tournament form holds its text (phone and desktop), the "live" badge shows only while the
tournament runs, players level on every tie-break share a place ("1="), the leaderboard
lists provisional players in a section of their own with the games until they are ranked,
and a provisional player's large rating change says why."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect
from websockets.sync.client import connect

from tests.support.live_server import LiveServer

pytestmark = pytest.mark.e2e

SPILLING = """() => [...document.querySelectorAll(".create-form .chip-body")]
  .filter((c) => c.checkVisibility() && c.scrollWidth > c.clientWidth)
  .map((c) => `${c.textContent.trim()}: ${c.scrollWidth} > ${c.clientWidth}`)"""

CHIPS = """() => [...document.querySelectorAll(".create-form .chip-body")]
  .filter((c) => c.checkVisibility()).length"""


@pytest.mark.parametrize("phone", [False, True], ids=["desktop", "phone"])
def test_every_tournament_chip_holds_its_text(new_page: Any, phone: bool) -> None:
    page = new_page(phone=phone)
    page.goto("/tournaments")
    expect(page.locator(".create-form .chip-body").first).to_be_visible()
    shown = page.evaluate(CHIPS)
    spilling = page.evaluate(SPILLING)
    page.locator(".chip", has_text="Arena").click()  # its durations show instead of rounds
    expect(page.locator(".arena-durations")).to_be_visible()
    spilling += page.evaluate(SPILLING)
    assert shown >= 10
    assert spilling == [], spilling


def _post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    answer = httpx.post(f"{base}{path}", json=body, timeout=10)
    assert answer.is_success, answer.text
    data: dict[str, Any] = answer.json()
    return data


def _identity(base: str, name: str) -> dict[str, str]:
    made = _post(base, "/api/players", {"name": name})
    return {"id": made["player_id"], "secret": made["secret"]}


def test_the_live_badge_shows_only_while_the_tournament_runs(
    new_page: Any, live_server: LiveServer
) -> None:
    base = live_server.url
    ada, bob = _identity(base, "Ada"), _identity(base, "Bob")
    tid = _post(base, "/api/tournaments", {"player": ada})["tournament_id"]
    _post(base, f"/api/tournaments/{tid}/join", {"player": bob})
    page = new_page()
    page.goto(f"/t/{tid}")
    badge = page.locator(".live-tag")
    expect(page.locator(".t-status")).to_be_visible()
    expect(badge).to_be_hidden()  # open: nothing is played yet
    _post(base, f"/api/tournaments/{tid}/start", {"player": ada})
    expect(badge).to_be_visible()
    view = httpx.get(f"{base}/api/tournaments/{tid}", params={"player": bob["id"]}).json()
    room = view["your_game"]["room_id"]
    with connect(live_server.ws_url(room)) as ws:  # Bob joins his game and resigns it
        ws.send(json.dumps({"type": "join", "as": "player", "player": bob}))
        assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
        ws.send(json.dumps({"type": "resign", "id": "r1"}))
        while json.loads(ws.recv(timeout=10)).get("type") != "ack":
            pass
    expect(page.locator(".podium")).to_be_visible()
    expect(badge).to_be_hidden()  # finished: the standings no longer move


TIED = """async () => {
  const { standingsTable, podiumView } = await import("/js/render/tournament.js");
  const line = (id, rank, shared, points) => ({ id, name: id.toUpperCase(), rank, shared, points,
    played: 3, wins: points / 3, draws: 0, losses: 3 - points / 3, sonneborn_berger: 0 });
  const t = { kind: "round_robin", status: "finished", schedule: [],
    entrants: ["ann", "bob", "cat", "dan"].map((id) => ({ id, name: id.toUpperCase() })),
    standings: [line("ann", 1, true, 6), line("bob", 1, true, 6), line("cat", 1, true, 6),
                line("dan", 4, false, 0)] };
  document.body.append(standingsTable(t, null), podiumView(t));
  return {
    ranks: [...document.querySelectorAll(".standings td.rank")].map((td) => td.textContent),
    places: [...document.querySelectorAll(".podium .place")].map((p) => p.textContent),
  };
}"""


def test_players_level_on_every_tie_break_share_their_place(new_page: Any) -> None:
    page = new_page()
    page.goto("/tournaments")
    shown = page.evaluate(TIED)
    assert shown["ranks"] == ["1=", "1=", "1=", "4"]
    assert shown["places"] == ["1st=", "1st=", "1st="]
