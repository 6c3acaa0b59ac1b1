"""A finished game's analysis, in real Chromium: the final board has nothing left to weigh,
so the analysis card says so and offers one button, "Step back to see the values", which
moves the replay one move back, where the empty cells carry their values."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import banner, cell, evals, expect_cell, moves, seat

pytestmark = pytest.mark.e2e


def test_a_finished_game_offers_to_step_back_to_the_values(new_page: Any, create_room: Any) -> None:
    room = create_room()
    ada = new_page(name="Ada")
    seat(ada, room, "X")
    grace = new_page(name="Grace")
    seat(grace, room, "O")
    for page, (row, col) in [(ada, (1, 1)), (grace, (2, 1)), (ada, (1, 2)), (grace, (2, 2))]:
        cell(page, row, col).click()
        expect_cell(ada if page is grace else grace, row, col, "X" if page is ada else "O")
    cell(ada, 1, 3).click()  # a1, b1, c1: Ada wins
    expect(banner(ada)).to_be_visible()

    card = ada.locator(".analysis-card")
    switch = ada.get_by_role("switch", name="Analysis")
    switch.click()
    expect(card).to_contain_text("The game is over on this board")
    step_back = card.get_by_role("button", name="Step back to see the values")
    expect(step_back).to_be_visible()
    expect(evals(ada)).to_have_count(0)

    step_back.click()
    # one move back: c1 is empty again, X to move; every empty cell has its value
    expect_cell(ada, 1, 3, "empty")
    expect(evals(ada)).to_have_count(5)
    expect(cell(ada, 1, 3).locator(".eval")).to_have_text("W1")  # the move that won
    expect(step_back).to_have_count(0)  # values are shown: nothing to offer
    expect(card).not_to_contain_text("The game is over on this board")
    expect(moves(ada)).to_have_count(5)  # the record is whole; only the replay moved
