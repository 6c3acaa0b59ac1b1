"""Every kind of board renders and takes moves; a click that cannot be played is answered
by the page itself (a blocked cell, a premove out of turn)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import (
    cell,
    expect_cell,
    move_error,
    moves,
    seat,
    status_line,
)

pytestmark = pytest.mark.e2e


def seat_two(new_page: Any, room: str, *, phone: bool = False) -> tuple[Any, Any]:
    x = new_page(name="Xena", phone=phone)
    seat(x, room, "X")
    o = new_page(name="Otto")
    seat(o, room, "O")
    expect(status_line(x)).to_have_text("Your move")
    return x, o


def test_gravity_drops_and_a_full_column_is_refused(
    new_page: Any, create_room: Any, screenshot: Any
) -> None:
    room = create_room({"rows": 6, "cols": 7, "k": 4, "gravity": True})
    x, o = seat_two(new_page, room)
    expect(x.get_by_role("gridcell")).to_have_count(42)
    expect(x.locator(".board")).to_have_class(re.compile(r"\bgravity\b"))

    # Clicking the top of column 4 drops the piece to the bottom, as the server says.
    cell(x, 1, 4).click()
    for page in (x, o):
        expect_cell(page, 6, 4, "X")
        expect_cell(page, 1, 4, "empty")

    # Out of turn no cell is playable; a click queues a premove where the piece would land
    # (force: Playwright, like a screen reader, takes aria-disabled cells as unclickable).
    expect(cell(x, 1, 1)).to_have_attribute("aria-disabled", "true")
    cell(x, 1, 1).click(force=True)
    expect(cell(x, 6, 1)).to_have_attribute("aria-label", re.compile(", premove$"))
    cell(x, 3, 1).click(force=True)  # the same column again: the premove is cancelled
    expect(x.get_by_role("gridcell", name=re.compile("premove"))).to_have_count(0)
    expect_cell(x, 6, 1, "empty")

    players = [o, x, o, x, o]
    for i, page in enumerate(players):
        cell(page, 1, 4).click()
        expect_cell(x, 5 - i, 4, "O" if page is o else "X")
    expect(moves(x)).to_have_count(6)
    expect(move_error(x)).to_be_hidden()  # cleared by the moves since

    expect(cell(x, 1, 4)).to_have_attribute("aria-disabled", "true")
    expect(cell(x, 1, 5)).not_to_have_attribute("aria-disabled", "true")
    cell(x, 1, 4).click(force=True)
    expect(move_error(x)).to_have_attribute("data-code", "column_full")
    expect(move_error(x)).to_contain_text("Column d is full")
    expect(moves(x)).to_have_count(6)
    screenshot(x, "board-gravity")
    x.get_by_role("button", name="Dismiss").click()
    expect(move_error(x)).to_be_hidden()
    cell(x, 1, 5).click()
    expect_cell(o, 6, 5, "X")


def test_a_15x15_board_takes_moves_and_answers_a_click_on_a_taken_cell(
    new_page: Any, create_room: Any, screenshot: Any
) -> None:
    room = create_room({"rows": 15, "cols": 15, "k": 5})
    x, o = seat_two(new_page, room, phone=True)
    expect(x.get_by_role("gridcell")).to_have_count(225)
    expect(x.locator(".board .coords-cols span")).to_have_count(15)
    expect(x.locator(".rules-text")).to_have_text("15×15 · 5 in a row")

    cell(x, 8, 8).click()
    expect_cell(o, 8, 8, "X")
    cell(o, 8, 8).click(force=True)
    error = move_error(o)
    expect(error).to_have_attribute("data-code", "occupied")
    expect(error).to_contain_text("h8 is taken")
    expect_cell(o, 8, 8, "X")
    expect(moves(o)).to_have_count(1)

    cell(o, 15, 15).click()
    expect_cell(x, 15, 15, "O")
    expect(error).to_be_hidden()
    cell(x, 1, 1).click()
    expect_cell(o, 1, 1, "X")
    expect(status_line(o)).to_have_text("Your move")
    screenshot(o, "board-15x15")


def test_a_3d_board_shows_four_layers_and_takes_moves_on_any_layer(
    new_page: Any, create_room: Any, screenshot: Any
) -> None:
    room = create_room({"rows": 4, "cols": 4, "layers": 4, "k": 4})
    x, o = seat_two(new_page, room)
    expect(x.get_by_role("grid")).to_have_count(4)
    expect(x.get_by_role("grid", name="Layer 1 (bottom)")).to_be_visible()
    expect(x.get_by_role("grid", name="Layer 4 (top)")).to_be_visible()
    expect(x.get_by_role("gridcell")).to_have_count(64)

    cell(x, 2, 3, layer=3).click()
    expect_cell(o, 2, 3, "X", layer=3)
    expect_cell(o, 2, 3, "empty", layer=1)
    expect(o.locator(".move-list .move")).to_have_text(["L3 c2"])

    # Keyboard: PageUp climbs a layer, arrows move within it, Enter plays.
    o.locator('.board [tabindex="0"]').focus()
    focused = o.locator(".board :focus")
    expect(focused).to_have_attribute("aria-label", re.compile(r"^layer 1, row 2, column 2, "))
    o.keyboard.press("PageUp")
    o.keyboard.press("ArrowRight")
    o.keyboard.press("ArrowRight")
    expect(focused).to_have_attribute("aria-label", re.compile(r"^layer 2, row 2, column 4, "))
    o.keyboard.press("Enter")
    expect_cell(x, 2, 4, "O", layer=2)
    screenshot(o, "board-3d")
