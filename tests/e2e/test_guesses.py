"""Spectators who play along, in real Chromium: two spectators click a cell each to guess X's
next move (a dashed "?" ring, not a piece), X plays, and both see the crowd's split on the
card and on the cells with their own result and streak; the players' pages show none of it,
and their sockets never receive a guess or a split."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import cell, expect_cell, role_badge, seat

pytestmark = pytest.mark.e2e


def received(page: Any) -> list[str]:
    """Every text frame the page's WebSockets receive from now on."""
    frames: list[str] = []
    page.on(
        "websocket",
        lambda ws: ws.on(
            "framereceived",
            lambda payload: frames.append(payload if isinstance(payload, str) else ""),
        ),
    )
    return frames


def test_two_spectators_guess_and_see_the_split_the_players_see_nothing(
    new_page: Any, create_room: Any
) -> None:
    room = create_room()
    ada_page, bob_page = new_page(name="Ada"), new_page(name="Bob")
    players_frames = received(ada_page), received(bob_page)
    ada = seat(ada_page, room, "X")
    bob = seat(bob_page, room, "O")
    watchers = []
    for name in ("Ann", "Cy"):
        page = new_page(name=name)
        page.goto(f"/r/{room}/watch")
        expect(role_badge(page)).to_have_text("Spectating")
        watchers.append(page)
    ann, cy = watchers
    for page in watchers:
        expect(page.locator(".guess-card")).to_contain_text("Click a cell to guess X's next move")

    cell(ann, 2, 2).click()
    expect(cell(ann, 2, 2)).to_have_attribute("aria-label", re.compile("your guess"))
    expect(cell(ann, 2, 2)).to_have_class(re.compile(r"\bguessed\b"))
    expect_cell(ann, 2, 2, "empty")  # a guess is never drawn as a piece
    expect(ann.locator(".guess-card")).to_contain_text("Your guess: b2")
    cell(cy, 1, 1).click()
    expect(cy.locator(".guess-card")).to_contain_text("Your guess: a1")
    ann.wait_for_function("() => true")

    cell(ada, 2, 2).click()  # X plays b2: Ann guessed right, Cy did not
    expect_cell(bob, 2, 2, "X")
    card_ann, card_cy = ann.locator(".guess-card"), cy.locator(".guess-card")
    expect(card_ann).to_contain_text("b2: 1 of 2 guessed it (50%)")
    expect(card_ann).to_contain_text("right!")
    expect(card_ann).to_contain_text("Your streak: 1")
    expect(card_cy).to_contain_text("b2: 1 of 2 guessed it (50%)")
    expect(card_cy).to_contain_text("You guessed a1: not this time.")
    expect(card_cy).to_contain_text("Your streak: 0")
    for page in watchers:
        expect(cell(page, 1, 1).locator(".guess-share")).to_have_text("50%")
        expect(cell(page, 2, 2).locator(".guess-share")).to_have_text("50%")

    # the players: no card, no shares, and no guess data ever reached their sockets
    for page in (ada, bob):
        expect(page.locator(".guess-card")).to_be_hidden()
        expect(page.locator(".guess-share")).to_have_count(0)
    cell(bob, 1, 1).click()  # a move after the split went out: the players are current
    expect_cell(ada, 1, 1, "O")
    for frames in players_frames:
        assert frames, "the players' pages received their room"
        assert not [f for f in frames if '"guesses"' in f or '"guess"' in f or "split" in f]
    # the next move clears the shares: they belong to the move they were for
    for page in watchers:
        expect(page.locator(".guess-share")).to_have_count(0)
