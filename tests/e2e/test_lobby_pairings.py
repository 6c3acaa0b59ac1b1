"""The lobby starts a game in one click: a grid of the common pairings (game by clock) that
seats the player at once with quick play, above the fold at 1280x800, with the custom
game's full form one click away."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import role_badge, status_line
from tests.e2e.conftest import DESKTOP

pytestmark = pytest.mark.e2e


def test_the_pairings_and_the_custom_game_fit_the_first_screen(
    new_page: Any, screenshot: Any
) -> None:
    page = new_page(DESKTOP, name="Ada")
    page.goto("/")
    tiles = page.locator(".pairing")
    expect(tiles).to_have_count(16)
    expect(page.get_by_role("button", name="Connect Four, 3 + 2", exact=True)).to_be_visible()
    expect(page.get_by_role("button", name="Gomoku, no clock", exact=True)).to_be_visible()
    summary = page.get_by_text("Custom game", exact=True)
    for part in [*tiles.all(), summary]:
        found = part.bounding_box()
        assert found is not None
        bottom = found["y"] + found["height"]
        assert bottom <= DESKTOP["height"], f"{part} ends at {bottom}px, below the fold"
    create = page.get_by_role("button", name="Create game")
    expect(create).to_be_hidden()  # the full form is one click away
    screenshot(page, "lobby")
    summary.click()
    expect(create).to_be_visible()
    expect(page.get_by_role("group", name="Game")).to_be_visible()
    screenshot(page, "lobby-custom")


def test_one_click_on_the_same_pairing_in_two_browsers_seats_them_in_one_room(
    new_page: Any,
) -> None:
    ada = new_page(DESKTOP, name="Ada")
    bob = new_page(DESKTOP, name="Bob")
    for page in (ada, bob):
        page.goto("/")
        expect(page.locator(".pairing")).to_have_count(16)
    ada.get_by_role("button", name="Classic, 3 + 2", exact=True).click()
    expect(ada).to_have_url(re.compile(r"/r/[^/]+$"))
    expect(role_badge(ada)).to_have_text(re.compile(r"^You play [XO]$"))
    bob.get_by_role("button", name="Classic, 3 + 2", exact=True).click()
    expect(bob).to_have_url(ada.url)  # the same room
    expect(role_badge(bob)).to_have_text(re.compile(r"^You play [XO]$"))
    marks = {role_badge(page).inner_text() for page in (ada, bob)}
    assert marks == {"You play X", "You play O"}, marks
    expect(ada.locator(".clock-rail")).to_be_visible()  # the pairing's clock
    expect(ada.locator(".rules-text")).to_have_text("3×3 · 3 in a row")
    for page in (ada, bob):
        expect(status_line(page)).to_have_text(re.compile(r"^(Your move|.* to move)$"))
