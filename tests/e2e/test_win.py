"""A win that feels like one, in real Chromium: the winning line's cells celebrate one after
the other (and stay still for a user who prefers reduced motion), the result banner says
who won in large type, and a rematch is one click from the banner on each side."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import banner, cell, expect_cell, role_badge, seat, status_line

pytestmark = pytest.mark.e2e

ANIMATIONS = "(el) => getComputedStyle(el).animationName"
FONT_SIZE = "(el) => parseFloat(getComputedStyle(el).fontSize)"
STEPS = "(els) => els.map((el) => el.style.getPropertyValue('--win-step'))"


def test_the_winning_line_celebrates_and_rematch_is_one_click_away(
    new_page: Any, create_room: Any, screenshot: Any
) -> None:
    room = create_room()
    ada = new_page(name="Ada")
    ada.emulate_media(reduced_motion="no-preference")  # Ada likes motion; Grace does not
    seat(ada, room, "X")
    grace = new_page(name="Grace")
    seat(grace, room, "O")

    for page, (row, col) in [(ada, (1, 2)), (grace, (1, 1)), (ada, (2, 2)), (grace, (3, 3))]:
        cell(page, row, col).click()
        expect_cell(ada if page is grace else grace, row, col, "X" if page is ada else "O")
    cell(ada, 3, 2).click()  # b1, b2, b3

    for page in (ada, grace):
        line = page.locator(".board .cell.celebrate")
        expect(line).to_have_count(3)
        # the cells light up in the line's order, b1 → b3
        steps = line.evaluate_all(STEPS)
        assert sorted(steps) == ["0", "1", "2"]
        expect(page.locator(".board .cell.win:not(.celebrate)")).to_have_count(0)
    assert "win-light" in cell(ada, 2, 2).evaluate(ANIMATIONS)
    assert "win-jump" in cell(ada, 2, 2).locator(".piece").evaluate(ANIMATIONS)
    # reduced motion: the same cells, marked as the line, but still
    assert cell(grace, 2, 2).evaluate(ANIMATIONS) == "none"
    assert cell(grace, 2, 2).locator(".piece").evaluate(ANIMATIONS) == "none"

    expect(banner(ada)).to_have_attribute("data-tone", "win")
    expect(banner(ada).locator(".banner-title")).to_have_text("You won!")
    expect(banner(grace)).to_have_attribute("data-tone", "loss")
    expect(banner(grace).locator(".banner-title")).to_have_text("You lost")
    expect(banner(grace).locator(".banner-detail")).to_have_text("Ada won · 3 in a row")
    size = banner(ada).locator(".banner-title").evaluate(FONT_SIZE)
    body = ada.locator("body").evaluate(FONT_SIZE)
    assert size >= 1.6 * body  # the largest text on the page
    # the picture once the line has finished celebrating (a bound, not a timing)
    ada.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
    screenshot(ada, "win")

    banner(ada).get_by_role("button", name="Rematch", exact=True).click()
    expect(banner(grace)).to_contain_text("Ada wants a rematch.")
    banner(grace).get_by_role("button", name="Accept rematch", exact=True).click()
    for page in (ada, grace):
        expect(banner(page)).to_be_hidden()
        expect(page.locator(".board .cell.filled")).to_have_count(0)
        expect(page.locator(".board .cell.celebrate")).to_have_count(0)
    expect(role_badge(grace)).to_have_text("You play X")  # the rematch swaps who starts
    expect(status_line(grace)).to_have_text("Your move")
