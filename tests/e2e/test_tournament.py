"""A round-robin tournament in real Chromium: created on the tournaments' page, entered by
three browsers (three guest identities), started by its creator; each browser is moved to
its game by itself (from one game straight to the next), the games are played (a quick win
for X), a watcher's standings follow live, and the finished tournament shows the podium and
a CSV that downloads. And the creator's controls: a bot added, a player withdrawing before
the start, a private tournament left out of the list, a start that takes the creator to
their game against the bot."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import (
    button,
    play_tournament_game,
    role_badge,
)
from tests.e2e.contrast import low_contrast

pytestmark = pytest.mark.e2e


def identity(page: Any) -> str:
    player_id: str = page.evaluate("() => JSON.parse(localStorage.getItem('ttt.identity')).id")
    return player_id


def both_themes(page: Any, state: str) -> list[str]:
    return [f"{state} {f}" for scheme in ("light", "dark") for f in low_contrast(page, scheme)]


def enter(page: Any, tournament_id: str) -> None:
    """Open the tournament's page and join it under the stored name."""
    page.goto(f"/t/{tournament_id}")
    button(page, "Join the tournament").click()
    expect(page.locator(".entrant-list li.mine")).to_have_count(1)


def standing(page: Any, player_id: str) -> Any:
    return page.locator(f'.standings tbody tr[data-entrant="{player_id}"]')


def test_a_round_robin_played_in_three_browsers(
    new_page: Any, live_server: Any, screenshot: Any
) -> None:
    failures: list[str] = []
    ada = new_page(name="Ada")
    ada.goto("/")
    ada.get_by_role("link", name="run a tournament").click()
    expect(ada).to_have_url(re.compile(r"/tournaments$"))
    ada.get_by_role("textbox", name="Tournament name").fill("Club night")
    button(ada, "Create tournament").click()
    expect(ada).to_have_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    tournament_id = ada.url.rstrip("/").rsplit("/", 1)[-1]
    expect(ada.get_by_role("heading", level=1)).to_have_text("Club night")
    expect(ada.locator(".t-status")).to_have_text("Open: starts when its creator starts it")
    # the creator is an entrant already: nothing is ranked yet, and the page says why
    expect(ada.locator(".empty-note", has_text="start with the first round")).to_be_visible()
    expect(ada.get_by_text("No entrants yet.")).to_have_count(0)

    # the list of public tournaments links to it; Bob joins from there
    bob = new_page(name="Bob")
    bob.goto("/")
    bob.get_by_role("navigation", name="Site").get_by_role("link", name="Tournaments").click()
    item = bob.locator(f'.tournament-item[data-tournament-id="{tournament_id}"]')
    expect(item).to_contain_text("Club night")
    expect(item).to_contain_text("1 of 8 players")
    screenshot(bob, "tournament-lobby")
    failures += both_themes(bob, "tournaments")
    item.get_by_role("link", name="Join Club night").click()
    expect(bob).to_have_url(re.compile(rf"/t/{tournament_id}$"))
    button(bob, "Join the tournament").click()
    expect(bob.locator(".entrant-list li.mine")).to_have_count(1)
    watcher = new_page()
    watcher.goto(f"/t/{tournament_id}")
    expect(watcher.locator(".entrant-list li")).to_have_count(2)
    cid = new_page(name="Cid")
    enter(cid, tournament_id)
    expect(watcher.locator(".entrant-list li")).to_have_count(3)  # live: the join shows
    expect(button(watcher, "Start now")).to_have_count(0)  # the creator's alone
    failures += both_themes(ada, "open tournament")

    pages = {identity(p): p for p in (ada, bob, cid)}
    button(ada, "Start now").click()
    expect(watcher.locator(".t-status")).to_have_text(re.compile("^Playing round 1 of 3"))

    api = f"{live_server.url}/api/tournaments/{tournament_id}"
    for number in (1, 2, 3):
        game = httpx.get(api, timeout=10).json()["schedule"][number - 1]["games"][0]
        x, o = pages[game["first"]], pages[game["second"]]
        room = f"{tournament_id}-{number}-0"  # docs/tournaments.md: one room id a game
        play_tournament_game(x, o, room)  # moved to the game by the pages themselves
        # the watcher's standings follow: X's win is counted within moments
        expect(watcher.locator(f'.game-line[data-room="{room}"]')).to_contain_text("won")
        expect(standing(watcher, game["first"]).locator(".points")).not_to_have_text("0")
        if number == 1:
            screenshot(watcher, "tournament-standings")
            failures += both_themes(x, "tournament game over")
        # no click: each page goes on to its next game by itself (tournament-follow.js)

    expect(watcher.locator(".t-status")).to_have_text("Finished")
    final = httpx.get(api, timeout=10).json()
    assert all(g["result"] == g["first"] for r in final["schedule"] for g in r["games"])
    podium = watcher.locator(".podium-steps .step")
    expect(podium).to_have_count(3)
    for place, row in enumerate(final["standings"][:3], start=1):
        expect(watcher.locator(f'.podium-steps [data-place="{place}"]')).to_contain_text(
            row["name"]
        )
    # each played two games (one as X: a win) and sat one out (a bye: 3 points)
    for row in final["standings"]:
        expect(standing(watcher, row["id"]).locator(".points")).to_have_text(str(row["points"]))
    screenshot(watcher, "tournament-podium")
    failures += both_themes(watcher, "finished tournament")

    with watcher.expect_download() as download_info:
        watcher.get_by_role("link", name="Download results (CSV)").click()
    path = Path(download_info.value.path())
    text = path.read_text(encoding="utf-8")
    assert text.startswith("rank,name,points,played,wins,draws,losses")
    assert all(name in text for name in ("Ada", "Bob", "Cid"))
    with watcher.expect_download() as download_info:
        watcher.get_by_role("link", name="Download game records").click()
    records = Path(download_info.value.path()).read_text(encoding="utf-8")
    assert records.count('[Event "tictactoe"]') == 3 and records.count('[Result "1-0"]') == 3
    assert not failures, "text below 4.5:1:\n" + "\n".join(failures)


def test_the_creator_adds_a_bot_a_player_withdraws_and_a_private_one_is_unlisted(
    new_page: Any, live_server: Any
) -> None:
    ada = new_page(name="Ada")
    ada.goto("/tournaments")
    ada.get_by_role("textbox", name="Tournament name").fill("Quiet one")
    ada.get_by_role("radio", name=re.compile("^Private")).check()
    button(ada, "Create tournament").click()
    expect(ada).to_have_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    tournament_id = ada.url.rstrip("/").rsplit("/", 1)[-1]
    expect(ada.locator(".t-rules")).to_contain_text("private: by link")
    listed = httpx.get(f"{live_server.url}/api/tournaments", timeout=10).json()["tournaments"]
    assert tournament_id not in {t["tournament_id"] for t in listed}

    ada.get_by_role("combobox", name="Bot level").select_option("easy")
    button(ada, "Add bot").click()
    expect(ada.locator(".entrant-list li")).to_have_count(2)
    expect(ada.locator(".entrant-list")).to_contain_text("Bot (easy)")
    bob = new_page(name="Bob")
    enter(bob, tournament_id)
    expect(ada.locator(".entrant-list li")).to_have_count(3)  # Ada's page follows live
    button(bob, "Withdraw").click()
    expect(ada.locator(".entrant-list li")).to_have_count(2)
    expect(button(bob, "Join the tournament")).to_be_visible()  # before the start: off the list

    button(ada, "Start now").click()  # Ada against the bot: her page takes her to the game
    expect(ada).to_have_url(re.compile(rf"/r/{tournament_id}-1-0$"))
    expect(role_badge(ada)).to_have_text(re.compile(r"^You play [XO]$"))
