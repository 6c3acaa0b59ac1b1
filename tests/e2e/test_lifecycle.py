"""The game lifecycle in real browsers against the real server: resign (with a spectator
seeing the banner), rematch with colours swapped and the series score, draw offers,
takebacks, claims when the opponent left, and buttons that appear only when possible."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import (
    banner,
    button,
    cell,
    expect_cell,
    moves,
    player,
    prompt,
    role_badge,
    seat,
    status_line,
)

pytestmark = pytest.mark.e2e


def test_resign_with_confirmation_then_a_rematch_swaps_colours_and_keeps_score(
    new_page: Any, create_room: Any
) -> None:
    room = create_room()
    ada = seat(new_page(name="Ada"), room)
    grace = seat(new_page(name="Grace", phone=True), room)
    watcher = new_page()
    watcher.goto(f"/r/{room}/watch")
    expect(role_badge(watcher)).to_have_text("Spectating")

    # Before both have moved a game can be aborted, not resigned; no draw offers yet.
    expect(button(ada, "Abort game")).to_be_visible()
    expect(button(ada, "Resign")).to_have_count(0)
    expect(button(ada, "Offer a draw")).to_have_count(0)
    expect(button(watcher, "Abort game")).to_have_count(0)
    cell(ada, 2, 2).click()
    expect_cell(grace, 2, 2, "X")
    cell(grace, 1, 1).click()
    expect_cell(ada, 1, 1, "O")
    expect(button(ada, "Abort game")).to_have_count(0)
    expect(button(grace, "Resign")).to_be_visible()
    expect(button(watcher, "Resign")).to_have_count(0)  # spectators can change nothing

    # Resigning asks first; "Cancel" keeps playing.
    button(grace, "Resign").click()
    expect(grace.get_by_role("group", name="Resign this game?")).to_be_visible()
    expect(grace.get_by_role("button", name="Cancel")).to_be_focused()
    grace.get_by_role("button", name="Cancel").click()
    expect(button(grace, "Resign")).to_be_visible()
    button(grace, "Resign").click()
    button(grace, "Yes, resign").click()

    expect(banner(ada)).to_contain_text("You won!")
    expect(banner(grace)).to_contain_text("Ada won")
    expect(banner(watcher)).to_contain_text("Ada (X) won")
    for page in (ada, grace, watcher):
        expect(banner(page)).to_contain_text("Grace resigned")
        expect(button(page, "Resign")).to_have_count(0)
    expect(button(watcher, "Rematch")).to_have_count(0)

    # Ada asks for a rematch, Grace sees it and accepts: a new game with colours swapped.
    button(ada, "Rematch").click()
    expect(banner(ada)).to_contain_text("Rematch offered — waiting for the other side.")
    expect(button(ada, "Rematch")).to_have_count(0)
    expect(banner(grace)).to_contain_text("Ada wants a rematch.")
    button(grace, "Accept rematch").click()

    expect(role_badge(ada)).to_have_text("You play O")
    expect(role_badge(grace)).to_have_text("You play X")
    for page in (ada, grace, watcher):
        expect(banner(page)).to_be_hidden()
        expect(page.locator(".game-no")).to_have_text("Game 2")
        expect(player(page, "X")).to_contain_text("Grace")
        expect(player(page, "O")).to_contain_text("Ada")
        expect(player(page, "O").locator(".score")).to_have_text("1")
        expect(player(page, "X").locator(".score")).to_have_text("0")
        expect(page.get_by_role("gridcell", name=re.compile(", empty$"))).to_have_count(9)
        expect(moves(page)).to_have_count(0)
    expect(status_line(grace)).to_have_text("Your move")
    expect(status_line(ada)).to_have_text("Grace (X) to move")

    cell(grace, 1, 1).click()  # Grace is X now and moves first
    expect_cell(ada, 1, 1, "X")
    expect(status_line(ada)).to_have_text("Your move")

    ada.reload()  # the seat token still works after the rematch, with the new mark
    expect(role_badge(ada)).to_have_text("You play O")
    expect_cell(ada, 1, 1, "X")


def test_a_declined_then_accepted_draw_and_an_accepted_takeback(
    new_page: Any, create_room: Any
) -> None:
    room = create_room()
    ada = seat(new_page(name="Ada"), room)
    bob = seat(new_page(name="Bob"), room)
    cell(ada, 2, 2).click()
    expect_cell(bob, 2, 2, "X")
    cell(bob, 1, 1).click()
    expect_cell(ada, 1, 1, "O")
    cell(ada, 3, 3).click()
    expect_cell(bob, 3, 3, "X")

    # Ada asks to take her move back; Bob allows it; Ada is to move again.
    button(ada, "Ask to take back").click()
    expect(prompt(ada, "takeback")).to_contain_text("Waiting for an answer")
    expect(button(ada, "Ask to take back")).to_have_count(0)
    expect(prompt(bob, "takeback")).to_contain_text("Ada asks to take back a move.")
    bob.get_by_role("button", name="Allow takeback").click()
    for page in (ada, bob):
        expect_cell(page, 3, 3, "empty")
        expect(moves(page)).to_have_count(2)
        expect(prompt(page, "takeback")).to_have_count(0)
    expect(status_line(ada)).to_have_text("Your move")

    # Ada offers a draw; Bob declines; Ada may not offer again before she moves.
    button(ada, "Offer a draw").click()
    expect(prompt(ada, "draw")).to_contain_text("You offered a draw")
    expect(prompt(bob, "draw")).to_contain_text("Ada offers a draw.")
    bob.get_by_role("button", name="Decline the draw").click()
    expect(prompt(ada, "draw")).to_have_count(0)
    expect(prompt(bob, "draw")).to_have_count(0)
    expect(button(ada, "Offer a draw")).to_have_count(0)
    expect(button(bob, "Offer a draw")).to_be_visible()

    # After a reload the page no longer knows it offered; the server does, and its
    # refusal is shown next to the button that asked.
    ada.reload()
    expect(status_line(ada)).to_have_text("Your move")
    button(ada, "Offer a draw").click()
    error = ada.locator(".info-card .notice")
    expect(error).to_have_attribute("data-code", "too_soon")
    expect(error).to_contain_text("Not yet")
    expect(prompt(bob, "draw")).to_have_count(0)

    cell(ada, 1, 3).click()
    expect_cell(bob, 1, 3, "X")
    button(bob, "Offer a draw").click()
    expect(prompt(ada, "draw")).to_contain_text("Bob offers a draw.")
    ada.get_by_role("button", name="Accept draw").click()
    for page in (ada, bob):
        expect(banner(page)).to_contain_text("Draw")
        expect(banner(page)).to_contain_text("By agreement")
        expect(player(page, "X").locator(".score")).to_have_text("½")

    # The game record the moves card links to is the server's text export.
    href = ada.get_by_role("link", name="Download record").get_attribute("href")
    record = ada.request.get(href).text()
    assert '[Result "1/2-1/2"]' in record and '[X "Ada"]' in record and '[O "Bob"]' in record


def test_the_opponent_leaves_and_the_win_is_claimed(new_page: Any, create_room: Any) -> None:
    room = create_room()
    ada = seat(new_page(name="Ada"), room)
    bob = seat(new_page(name="Bob"), room)
    cell(ada, 2, 2).click()
    expect_cell(bob, 2, 2, "X")
    cell(bob, 1, 1).click()
    expect_cell(ada, 1, 1, "O")

    # The tab closes: on `pagehide` the client says `leave` and stops reconnecting.
    # (Playwright's WebSocket shim, which the test guard installs, drops frames sent while
    # a page really unloads, so the test fires the event itself.)
    bob.evaluate("() => window.dispatchEvent(new PageTransitionEvent('pagehide'))")
    expect(bob.locator(".conn")).to_have_text("Disconnected")
    expect(player(ada, "O")).to_have_attribute("data-state", "offline")
    expect(player(ada, "O")).to_contain_text("left")
    expect(button(ada, "Claim the win")).to_be_visible()  # after the (short) leave grace
    expect(prompt(ada, "claim")).to_contain_text("Bob left the game.")
    expect(button(ada, "Call it a draw")).to_be_visible()
    button(ada, "Claim the win").click()
    expect(banner(ada)).to_contain_text("You won!")
    expect(banner(ada)).to_contain_text("Bob left the game")
    expect(prompt(ada, "claim")).to_have_count(0)
