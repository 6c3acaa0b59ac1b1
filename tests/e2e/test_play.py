"""Two browsers play while a third watches; a player reloads and keeps the seat."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import (
    banner,
    cell,
    connection,
    custom_game,
    expect_cell,
    move_error,
    moves,
    player,
    role_badge,
    seat,
    status_line,
    watchers,
)

pytestmark = pytest.mark.e2e


def test_two_players_and_a_spectator_play_a_full_game(new_page: Any, screenshot: Any) -> None:
    ada = new_page(name="Ada")
    ada.goto("/")
    custom_game(ada)
    ada.get_by_role("radio", name=re.compile("^Classic")).check()
    ada.get_by_role("button", name="Create game").click()
    expect(ada).to_have_url(re.compile(r"/r/[a-z0-9]{8}$"))
    expect(role_badge(ada)).to_have_text("You play X")
    expect(connection(ada)).to_have_text("Connected")
    expect(status_line(ada)).to_have_text("Waiting for an opponent to join")
    invite = ada.get_by_label("Invite link").input_value()
    assert invite == ada.url

    watcher = new_page()
    sockets: list[str] = []
    watcher.on("websocket", lambda ws: sockets.append(ws.url))
    watcher.goto(invite + "/watch")
    expect(role_badge(watcher)).to_have_text("Spectating")
    assert sockets == [invite.replace("http", "ws", 1).replace("/r/", "/ws/") + "/watch"]
    expect(watchers(ada)).to_have_text("1")

    grace = seat(new_page(name="Grace", phone=True), invite.rsplit("/", 1)[-1], "O")
    for page in (ada, grace, watcher):
        expect(player(page, "X")).to_contain_text("Ada")
        expect(player(page, "O")).to_contain_text("Grace")
        expect(player(page, "O")).to_have_attribute("data-state", "online")
    expect(status_line(ada)).to_have_text("Your move")
    expect(status_line(grace)).to_have_text("Ada (X) to move")
    expect(ada.get_by_label("Invite link")).to_have_count(0)  # no seat left to invite to

    # X plays the centre with the keyboard: the focused cell starts in the middle.
    ada.locator('.board [tabindex="0"]').focus()
    expect(ada.locator(".board :focus")).to_have_attribute("aria-label", "row 2, column 2, empty")
    ada.keyboard.press("Enter")
    for page in (ada, grace, watcher):
        expect_cell(page, 2, 2, "X")
    expect(status_line(grace)).to_have_text("Your move")

    cell(grace, 1, 1).click()
    for page in (ada, grace, watcher):
        expect_cell(page, 1, 1, "O")

    ada.keyboard.press("ArrowUp")  # focus stayed on the board while O moved
    expect(ada.locator(".board :focus")).to_have_attribute("aria-label", "row 1, column 2, empty")
    ada.keyboard.press("Space")
    for page in (ada, grace, watcher):
        expect_cell(page, 1, 2, "X")
    expect(moves(watcher)).to_have_count(3)
    expect(ada.locator("#announcer")).to_contain_text("You played b1.")
    screenshot(ada, "game")
    screenshot(watcher, "spectator")

    cell(grace, 3, 3).click()
    for page in (ada, grace, watcher):
        expect_cell(page, 3, 3, "O")
    cell(ada, 3, 2).click()

    expect(banner(ada)).to_contain_text("You won!")
    expect(banner(grace)).to_contain_text("Ada won")
    expect(banner(watcher)).to_contain_text("Ada (X) won")
    for page in (ada, grace, watcher):
        expect(banner(page)).to_contain_text("3 in a row")
        expect(page.get_by_role("gridcell", name=re.compile("winning line$"))).to_have_count(3)
        expect(moves(page)).to_have_count(5)
        expect(status_line(page)).not_to_have_text(re.compile("to move|Your move"))
    expect(ada.locator(".board")).not_to_have_class(re.compile(r"\binteractive\b"))
    screenshot(grace, "finished")

    # The spectator replays the finished game move by move.
    watcher.get_by_role("button", name="First move").click()
    expect(watcher.get_by_role("gridcell", name=re.compile(", empty$"))).to_have_count(9)
    watcher.get_by_role("button", name="Next move").click()
    expect_cell(watcher, 2, 2, "X")
    expect(watcher.get_by_role("gridcell", name=re.compile(", empty$"))).to_have_count(8)
    expect(status_line(watcher)).to_have_text("Reviewing move 1 of 5")
    watcher.get_by_role("button", name=re.compile(r"^Move 4, ")).click()
    expect_cell(watcher, 3, 3, "O")
    expect_cell(watcher, 3, 2, "empty")
    watcher.get_by_role("button", name="Back to the live game").click()
    expect_cell(watcher, 3, 2, "X")
    expect(banner(watcher)).to_be_visible()


def test_a_reload_keeps_the_seat_and_the_opponent_sees_the_drop(
    new_page: Any, create_room: Any
) -> None:
    room = create_room()
    ada = new_page(name="Ada")
    seat(ada, room, "X")
    bob = new_page(name="Bob")
    seat(bob, room, "O")

    cell(ada, 2, 2).click()
    expect_cell(bob, 2, 2, "X")

    ada.reload()
    expect(role_badge(ada)).to_have_text("You play X")
    expect_cell(ada, 2, 2, "X")
    expect(status_line(ada)).to_have_text("Bob (O) to move")
    expect(player(bob, "X")).to_have_attribute("data-state", "online")

    # Gone (the tab navigates away), then back: the opponent sees both.
    ada.goto("about:blank")
    expect(player(bob, "X")).to_have_attribute("data-state", "offline")
    expect(player(bob, "X")).to_contain_text("offline")
    ada.goto(f"/r/{room}")
    expect(player(bob, "X")).to_have_attribute("data-state", "online")
    expect(role_badge(ada)).to_have_text("You play X")

    cell(bob, 1, 1).click()
    expect_cell(ada, 1, 1, "O")
    expect(status_line(ada)).to_have_text("Your move")
    cell(ada, 1, 3).click()
    expect_cell(bob, 1, 3, "X")
    expect(moves(bob)).to_have_count(3)
    expect(move_error(ada)).to_be_hidden()


def test_the_invite_and_spectator_links_are_copied(new_page: Any, create_room: Any) -> None:
    room = create_room()
    page = new_page(name="Cleo", permissions=["clipboard-read", "clipboard-write"])
    seat(page, room, "X")
    page.get_by_role("button", name="Copy invite link").click()
    expect(page.locator("[data-action=invite]")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == f"{page.url}"
    page.get_by_role("button", name="Copy spectator link").click()
    expect(page.locator("[data-action=watch-link]")).to_have_text("Spectator link copied")
    assert page.evaluate("navigator.clipboard.readText()") == f"{page.url}/watch"
    expect(page.locator("[data-action=watch-link]")).to_have_text("Copy spectator link")
