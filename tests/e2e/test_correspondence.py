"""A correspondence game in real Chromium: Ada creates a game of one day a move from the
lobby's form, Grace takes the other seat, and each one's lobby shows the game under "Your
turn" when it is their move, with the time left, from the identity the seat was taken with."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import (
    button,
    cell,
    custom_game,
    expect_cell,
    prompt,
    role_badge,
    seat,
)

pytestmark = pytest.mark.e2e


def turn_item(page: Any, room: str) -> Any:
    return page.locator(f'.turns-card .turn-item[data-room-id="{room}"]')


def test_two_browsers_play_by_correspondence_and_see_their_turn(
    new_page: Any, screenshot: Any
) -> None:
    """About 16 s: the lobby polls its games every 5 s, and the last step waits for one."""
    ada = new_page(name="Ada")
    ada.goto("/")
    custom_game(ada)
    ada.get_by_role("radio", name="1 day").check()
    button(ada, "Create game").click()
    expect(role_badge(ada)).to_have_text("You play X")
    room = ada.url.rstrip("/").rsplit("/", 1)[-1]
    grace = new_page(name="Grace")
    seat(grace, room, "O")
    first = re.compile(
        r"^Make your first move within 2[0-3]:[0-5]\d:[0-5]\d, or the game is aborted"
    )
    expect(prompt(ada, "first-move")).to_have_text(first)  # a day, not 86400 s
    cell(ada, 2, 2).click()
    expect_cell(grace, 2, 2, "X")

    grace.goto("/")  # Grace's lobby: her move, with nearly a day to make it
    mine = turn_item(grace, room)
    expect(mine).to_have_attribute("data-your-turn", "true")
    expect(mine.locator(".turn-whose")).to_have_text("Your move")
    expect(mine.locator(".turn-left")).to_have_text(re.compile(r"^2[0-3]:[0-5]\d:[0-5]\d left$"))
    expect(mine).to_contain_text("vs Ada")
    expect(grace.locator(".turns-card .count-badge")).to_have_text("1")
    screenshot(grace, "lobby-your-turn")

    ada.goto("/")  # Ada's: the same game, her opponent's move
    theirs = turn_item(ada, room)
    expect(theirs.locator(".turn-whose")).to_have_text("Their move")
    expect(ada.locator(".turns-card .count-badge")).to_have_text("0")

    mine.get_by_role("link", name="Play").click()  # from the lobby into the game
    expect(role_badge(grace)).to_have_text("You play O")
    cell(grace, 1, 1).click()
    expect_cell(grace, 1, 1, "O")
    # Ada's lobby sees it become her move (its poll), without a reload
    polled = 20_000  # ms: the lobby polls every 5 s; a bound for a loaded machine
    expect(theirs.locator(".turn-whose")).to_have_text("Your move", timeout=polled)
    expect(ada.locator(".turns-card .count-badge")).to_have_text("1")


def test_a_correspondence_clock_reads_in_days(js: Any) -> None:
    out = js("""
        return {
            week: m.clock.formatClock(7 * 86400 - 1),
            day: m.clock.formatClock(86400),
            hours: m.clock.formatClock(86399),
            control: m.clock.timeControlText({initial: 259200, increment: 0, days: 3}),
            one: m.clock.timeControlText({initial: 86400, increment: 0, days: 1}),
            short: m.clock.waitText(29.2),
            long: m.clock.waitText(3 * 86400),
        };
    """)
    assert out == {
        "week": "6d 23h",
        "day": "1d 00h",
        "hours": "23:59:59",
        "control": "3 days a move",
        "one": "1 day a move",
        "short": "30 s",
        "long": "3d 00h",
    }
