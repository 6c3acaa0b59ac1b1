"""Arena tournaments in real Chromium: the form's kind and duration; an arena of 20 seconds
that its creator starts alone, which a second browser joins while it runs, both moved to
each game by their pages (from one game straight to the next), the standings and the
countdown following live on a watcher's page, until the podium; and a tournament game's room
opened from a pasted link, which knows from its snapshot that it is one (no abort, no
rematch, a way back to the tournament)."""

from __future__ import annotations

import json
import re
import time
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import (
    banner,
    button,
    play_tournament_game,
    role_badge,
)
from tests.e2e.contrast import low_contrast
from tests.support.live_server import LiveServer

pytestmark = pytest.mark.e2e

ARENA_SECONDS = 20  # short enough for a test, long enough for a late entrant and a few games
GAMES_WAIT = 60.0  # s: a bound against a hang, not a measurement


def make_identity(live_server: LiveServer, name: str) -> dict[str, str]:
    made = httpx.post(f"{live_server.url}/api/players", json={"name": name}, timeout=10).json()
    return {"id": made["player_id"], "secret": made["secret"]}


def hold(page: Any, identity: dict[str, str]) -> None:
    """This browser holds ``identity`` (as one that made it, or took it over by its link)."""
    stored = json.dumps(json.dumps(identity))
    page.context.add_init_script(
        f"if (location.protocol === 'http:') localStorage.setItem('ttt.identity', {stored})"
    )


def both_themes(page: Any, state: str) -> list[str]:
    return [f"{state} {f}" for scheme in ("light", "dark") for f in low_contrast(page, scheme)]


def standing(page: Any, player_id: str) -> Any:
    return page.locator(f'.standings tbody tr[data-entrant="{player_id}"]')


def test_the_form_makes_an_arena_of_the_chosen_length(
    new_page: Any, live_server: Any, screenshot: Any
) -> None:
    ada = new_page(name="Ada")
    ada.goto("/tournaments")
    durations = ada.get_by_role("radiogroup", name="Duration")
    cycles = ada.get_by_role("radiogroup", name="Rounds")
    expect(durations).to_be_hidden()  # a round robin lasts its rounds, once or twice
    expect(cycles.get_by_role("radio", name="Once each")).to_be_checked()
    ada.get_by_role("radio", name=re.compile("^Arena")).check()
    expect(durations).to_be_visible()
    expect(cycles).to_be_hidden()
    expect(durations.get_by_role("radio", name="5 min", exact=True)).to_be_checked()
    durations.get_by_role("radio", name="3 min", exact=True).check()
    picker, form = (ada.locator(s).bounding_box() for s in ("[name=starts_at]", ".create-form"))
    assert picker and form and picker["x"] + picker["width"] <= form["x"] + form["width"] + 0.5
    screenshot(ada, "arena-form")
    failures = both_themes(ada, "arena form")
    ada.get_by_role("textbox", name="Tournament name").fill("Quick arena")
    button(ada, "Create tournament").click()
    expect(ada).to_have_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    tournament_id = ada.url.rstrip("/").rsplit("/", 1)[-1]
    expect(ada.locator(".t-kind")).to_have_text("Arena · 3 min")
    expect(button(ada, "Start now")).to_be_visible()  # an arena starts with anyone in
    made = httpx.get(f"{live_server.url}/api/tournaments/{tournament_id}", timeout=10).json()
    assert (made["kind"], made["duration"]) == ("arena", 180)

    other = new_page()
    other.goto("/tournaments")
    item = other.locator(f'.tournament-item[data-tournament-id="{tournament_id}"]')
    expect(item).to_contain_text("Arena · 3 min")
    expect(item).to_contain_text("1 of 8 players · open")
    assert not failures, "text below 4.5:1:\n" + "\n".join(failures)


def test_an_arena_is_joined_late_played_through_and_ends_on_its_podium(
    new_page: Any, live_server: Any, screenshot: Any
) -> None:
    bob_id = make_identity(live_server, "Bob")
    made = httpx.post(
        f"{live_server.url}/api/tournaments",
        json={"name": "Blitz arena", "kind": "arena", "duration": ARENA_SECONDS,
              "time_control": {"initial": 60, "increment": 0}, "player": bob_id},
        timeout=10,
    )  # fmt: skip
    assert made.status_code == 201, made.text
    tournament_id = made.json()["tournament_id"]
    api = f"{live_server.url}/api/tournaments/{tournament_id}"

    bob = new_page(name="Bob")
    hold(bob, bob_id)
    bob.goto(f"/t/{tournament_id}")
    expect(bob.locator(".t-kind")).to_have_text("Arena · 20 s")
    button(bob, "Start now").click()  # alone: the arena starts and waits for players
    expect(bob.locator(".your-game")).to_contain_text("Waiting for the next pairing…")
    expect(bob.locator(".t-countdown")).to_have_text(re.compile(r"^Ends in 0:[0-2]\d$"))
    expect(button(bob, "Add bot")).to_be_visible()  # the creator's, while it runs

    watcher = new_page()
    watcher.goto(f"/t/{tournament_id}")
    expect(watcher.locator(".t-status")).to_have_text(re.compile("^Running"))
    cid = new_page(name="Cid")
    cid.goto(f"/t/{tournament_id}")
    button(cid, "Join the tournament").click()  # a late entrant, while it runs
    cid.wait_for_function("() => localStorage.getItem('ttt.identity')")  # made by the join
    cid_id = cid.evaluate("() => JSON.parse(localStorage.getItem('ttt.identity')).id")
    pages = {bob_id["id"]: bob, cid_id: cid}

    failures: list[str] = []
    played: list[dict[str, Any]] = []  # the games played here, in order
    done: set[str] = set()  # their rooms (the tournament may count a result a moment later)
    deadline = time.monotonic() + GAMES_WAIT
    while True:
        view = httpx.get(api, timeout=10).json()
        if view["status"] == "finished":
            break
        waiting = [
            g
            for r in view["schedule"]
            for g in r["games"]
            if g["room_id"] and g["result"] is None and g["room_id"] not in done
        ]
        if not waiting:
            assert time.monotonic() < deadline, f"the arena never finished: {view}"
            time.sleep(0.2)
            continue
        game = waiting[0]
        room = game["room_id"]
        x, o = pages[game["first"]], pages[game["second"]]
        play_tournament_game(x, o, room)  # moved to the game by the pages themselves
        expect(button(x, "Rematch")).to_have_count(0)  # one game a pairing
        played.append(game)
        done.add(room)
        # the watcher's standings follow: X's win is counted within moments
        expect(watcher.locator(f'.game-line[data-room="{room}"]')).to_contain_text("won")
        expect(standing(watcher, game["first"]).locator(".points")).not_to_have_text("0")
        if len(played) == 1:
            expect(watcher.locator(".t-countdown")).to_have_text(re.compile(r"^Ends in \d+:\d\d$"))
            screenshot(watcher, "arena-running")
            failures += both_themes(watcher, "running arena")
        # no click: each page goes on to its next game by itself (tournament-follow.js)

    assert played  # usually several (a rest of 3 s between games): their count is the clock's
    expect(watcher.locator(".t-status")).to_have_text("Finished")
    expect(watcher.locator(".t-countdown")).to_be_hidden()
    final = httpx.get(api, timeout=10).json()
    for row in final["standings"]:
        expect(standing(watcher, row["id"]).locator(".points")).to_have_text(str(row["points"]))
    # the crosstable shows every game of the two against each other, oldest first
    letters = standing(watcher, bob_id["id"]).locator(f'.cross[data-against="{cid_id}"]')
    expect(letters).to_have_text(
        " ".join("W" if g["first"] == bob_id["id"] else "L" for g in played)  # X won each
    )
    # the pairings newest first
    rounds = watcher.locator(".t-round")
    expect(rounds.first).to_have_attribute("data-round", str(final["rounds"]))
    podium = watcher.locator(".podium-steps .step")
    expect(podium).to_have_count(2)
    expect(watcher.locator('.podium-steps [data-place="1"]')).to_contain_text(
        final["standings"][0]["name"]
    )
    screenshot(watcher, "arena-finished")
    failures += both_themes(watcher, "finished arena")
    assert not failures, "text below 4.5:1:\n" + "\n".join(failures)


def test_a_tournament_room_from_a_pasted_link_leads_back_to_its_tournament(
    new_page: Any, live_server: Any
) -> None:
    ada_id, bob_id = (make_identity(live_server, name) for name in ("Ada", "Bob"))
    made = httpx.post(
        f"{live_server.url}/api/tournaments", json={"name": "Pair", "player": ada_id}, timeout=10
    ).json()
    tournament_id = made["tournament_id"]
    api = f"{live_server.url}/api/tournaments/{tournament_id}"
    for action, who in (("join", bob_id), ("start", ada_id)):
        answer = httpx.post(f"{api}/{action}", json={"player": who}, timeout=10)
        assert answer.status_code == 200, answer.text
    deadline = time.monotonic() + GAMES_WAIT
    while not (game := httpx.get(api, timeout=10).json()["schedule"][0]["games"][0])["room_id"]:
        assert time.monotonic() < deadline, "the game's room was never made"
        time.sleep(0.1)
    x_identity = ada_id if game["first"] == ada_id["id"] else bob_id

    page = new_page(name="Ada")  # a fresh browser: it never saw the tournament's page
    hold(page, x_identity)
    page.goto(f"/r/{game['room_id']}")
    snapshot = json.loads(page.locator("#room-snapshot").text_content())
    assert snapshot["tournament"] == tournament_id
    expect(role_badge(page)).to_have_text("You play X")
    expect(button(page, "Resign")).to_be_visible()  # from the first move: no abort here
    expect(button(page, "Abort game")).to_have_count(0)
    button(page, "Resign").click()
    button(page, "Yes, resign").click()
    expect(banner(page)).to_be_visible()
    expect(button(page, "Back to the tournament")).to_be_visible()
    expect(button(page, "Rematch")).to_have_count(0)
    expect(button(page, "New game, same rules")).to_have_count(0)
    button(page, "Back to the tournament").click()
    expect(page).to_have_url(re.compile(rf"/t/{tournament_id}$"))


def test_the_form_makes_a_double_round_robin(new_page: Any, live_server: Any) -> None:
    ada = new_page(name="Ada")
    ada.goto("/tournaments")
    twice = ada.get_by_role("radiogroup", name="Rounds").get_by_role(
        "radio", name=re.compile("^Twice")
    )
    twice.check()
    button(ada, "Create tournament").click()
    expect(ada).to_have_url(re.compile(r"/t/[A-Za-z0-9_-]+$"))
    expect(ada.locator(".t-kind")).to_have_text("Double round robin")
    tournament_id = ada.url.rstrip("/").rsplit("/", 1)[-1]
    made = httpx.get(f"{live_server.url}/api/tournaments/{tournament_id}", timeout=10).json()
    assert (made["kind"], made["double"]) == ("round_robin", True)
