"""A Swiss and a knockout in real Chromium. The Swiss: created on the tournaments' page (kind
Swiss, 3 rounds, 7 players), filled with bots from its page, started; its creator's page takes
her to each of her games (she resigns each to its bot) and the watcher's page follows the
rounds, the bye and the podium. The knockout: created with its draw rule, six bots and a
second browser, seeded as they entered (nobody rated: 1 v 8 is the two people); their first
game is drawn on the board, replayed with colours swapped and won, and the bracket on a
watcher's page (desktop and phone) shows the draw, the replay and each round to the final."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import banner, button, cell, expect_cell, play_tournament_game
from tests.e2e.contrast import low_contrast

pytestmark = pytest.mark.e2e

DRAWN = [(2, 2), (1, 1), (1, 3), (3, 1), (2, 1), (2, 3), (1, 2), (3, 2), (3, 3)]
"""A 3×3 game that fills the board with no line (cells as the page labels them: from 1)."""


def identity(page: Any) -> str:
    player_id: str = page.evaluate("() => JSON.parse(localStorage.getItem('ttt.identity')).id")
    return player_id


def create(page: Any, name: str, kind: str, **fields: Any) -> str:
    """Create a tournament on the tournaments' page; its id."""
    page.goto("/tournaments")
    page.get_by_role("textbox", name="Tournament name").fill(name)
    page.get_by_role("radio", name=re.compile(f"^{kind}")).check()
    for label, value in fields.items():
        if isinstance(value, bool):
            page.get_by_role("radio", name=re.compile(f"^{label}")).check()
        else:
            page.get_by_role("spinbutton", name=re.compile(label)).fill(str(value))
    button(page, "Create tournament").click()
    expect(page).to_have_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    return str(page.url.rstrip("/").rsplit("/", 1)[-1])


def add_bots(page: Any, count: int, total: int) -> None:
    for _ in range(count):
        page.get_by_role("combobox", name="Bot level").select_option("random")
        button(page, "Add bot").click()
    expect(page.locator(".entrant-list li")).to_have_count(total)


def resign(page: Any, room: str) -> None:
    expect(page).to_have_url(re.compile(rf"/r/{room}$"))
    button(page, "Resign").click()
    button(page, "Yes, resign").click()
    expect(banner(page)).to_contain_text(re.compile("resign", re.I))


def view(live_server: Any, tournament_id: str) -> Any:
    return httpx.get(f"{live_server.url}/api/tournaments/{tournament_id}", timeout=10).json()


def test_a_swiss_of_seven_over_three_rounds(
    new_page: Any, live_server: Any, screenshot: Any
) -> None:
    ada = new_page(name="Ada")
    tid = create(ada, "Swiss night", "Swiss", **{"Rounds": 3, "Most players": 7})
    expect(ada.locator(".t-kind")).to_have_text("Swiss · 3 rounds")
    expect(ada.locator(".t-actions")).to_contain_text("4 players at least for 3 rounds")
    add_bots(ada, 6, 7)
    watcher = new_page()
    watcher.goto(f"/t/{tid}")
    expect(watcher.locator(".entrant-list li")).to_have_count(7)
    me = identity(ada)
    button(ada, "Start now").click()
    for number in (1, 2, 3):
        expect(watcher.locator(".t-status")).to_have_text(
            re.compile(f"^(Playing round [{number}-3] of 3|Finished)")  # bots may be quicker
        )
        rnd = view(live_server, tid)["schedule"][number - 1]
        mine = [g for g in rnd["games"] if me in (g["first"], g["second"])]
        assert len(mine) + (rnd["bye"] == me) == 1  # a game or the bye, once a round
        if mine:
            resign(ada, f"{tid}-{number}-{mine[0]['index']}")  # the page took her there
        else:
            expect(watcher.locator(f'.t-round[data-round="{number}"] .bye')).to_contain_text("Ada")
    expect(watcher.locator(".t-status")).to_have_text("Finished")
    final = view(live_server, tid)
    byes = [r["bye"] for r in final["schedule"]]
    assert len(set(byes)) == 3 and None not in byes
    pairs = [frozenset((g["first"], g["second"])) for r in final["schedule"] for g in r["games"]]
    assert len(pairs) == len(set(pairs)) == 9
    expect(watcher.locator(".t-round")).to_have_count(3)
    expect(watcher.locator(".podium-steps .step")).to_have_count(3)
    expect(watcher.locator(".bracket-card")).to_be_hidden()
    screenshot(watcher, "swiss-finished")
    failures = [f for scheme in ("light", "dark") for f in low_contrast(watcher, scheme)]
    assert not failures, "text below 4.5:1:\n" + "\n".join(failures)


def test_a_knockout_of_eight_with_a_drawn_game_replayed(
    new_page: Any, live_server: Any, screenshot: Any
) -> None:
    ada = new_page(name="Ada")
    tid = create(ada, "Cup night", "Knockout", **{"Most players": 8, "Replay": True})
    expect(ada.locator(".t-kind")).to_have_text("Knockout · draws replayed")
    add_bots(ada, 6, 7)
    bob = new_page(name="Bob")
    bob.goto(f"/t/{tid}")
    button(bob, "Join the tournament").click()
    expect(bob.locator(".entrant-list li.mine")).to_have_count(1)
    watcher = new_page()
    watcher.goto(f"/t/{tid}")
    expect(watcher.locator(".bracket-card")).to_be_visible()
    expect(watcher.locator(".bracket-body")).to_contain_text("drawn when the knockout starts")
    button(ada, "Start now").click()

    first = watcher.locator('.b-round[data-round="1"] .b-match[data-match="0"]')
    expect(first.locator(".b-place")).to_have_count(2)
    expect(first.locator(".b-place").first).to_contain_text("Ada")
    expect(first.locator(".b-place").last).to_contain_text("Bob")
    expect(first.locator(".b-seed")).to_have_text(["1", "8"])
    expect(watcher.locator(".b-round h3")).to_have_text(["Quarter-finals", "Semi-finals", "Final"])

    room = f"{tid}-1-0"
    for page in (ada, bob):
        expect(page).to_have_url(re.compile(rf"/r/{room}$"))
    for turn, (row, col) in enumerate(DRAWN):
        mover, other = (ada, bob) if turn % 2 == 0 else (bob, ada)
        cell(mover, row, col).click()
        expect_cell(other, row, col, "X" if turn % 2 == 0 else "O")
    expect(banner(ada)).to_contain_text(re.compile("draw", re.I))
    expect(first.locator(".b-place").first.locator(".b-score")).to_have_text("D")
    replay = next(
        g
        for g in view(live_server, tid)["bracket"][0]["matches"][0]["games"]
        if g["result"] is None
    )
    assert (replay["first"], replay["second"]) == (identity(bob), identity(ada))  # swapped
    play_tournament_game(bob, ada, f"{tid}-1-{replay['index']}")  # Bob, now X, wins
    expect(first.locator(".b-place.through")).to_contain_text("Bob")
    expect(first.locator(".b-place").last.locator(".b-score")).to_have_text("D W")
    screenshot(watcher, "knockout-bracket")

    # Bob resigns to the bot he meets in the semi-final; the bots play theirs out
    semi = watcher.locator('.b-round[data-round="2"] .b-match[data-match="0"]')
    expect(semi.locator(".b-place").last).to_contain_text("Bob")  # seed 8, below seed 4 or 5
    expect(semi.locator(".b-link")).to_be_visible()
    games = view(live_server, tid)["bracket"][1]["matches"][0]["games"]
    resign(bob, f"{tid}-2-{games[0]['index']}")
    expect(watcher.locator(".t-status")).to_have_text("Finished")
    final = view(live_server, tid)
    matches = [m for r in final["bracket"] for m in r["matches"]]
    assert len(matches) == 7 and all(m["winner"] for m in matches)
    champion = final["bracket"][-1]["matches"][0]["winner"]
    expect(watcher.locator('.b-round[data-round="3"] .b-place.through')).to_have_count(1)
    expect(watcher.locator(".podium-steps .step").first).to_contain_text(
        next(e["name"] for e in final["entrants"] if e["id"] == champion)
    )
    screenshot(watcher, "knockout-finished")
    failures = [f for scheme in ("light", "dark") for f in low_contrast(watcher, scheme)]
    assert not failures, "text below 4.5:1:\n" + "\n".join(failures)
