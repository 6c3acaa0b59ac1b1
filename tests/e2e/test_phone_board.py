"""A large board on a phone: Zoom shows it at twice its width in its own box (one finger
scrolls it), and Confirm moves makes the first tap select a cell and the second play it;
the choice is remembered, and a desktop has neither (a click plays at once)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import cell, expect_cell, moves, seat, status_line
from tests.e2e.conftest import PHONE

pytestmark = pytest.mark.e2e

PRESSED = "aria-pressed"


def sent_moves(page: Any) -> list[dict[str, Any]]:
    """Collects the move frames the page sends (filled as the page talks)."""
    sent: list[dict[str, Any]] = []

    def on_socket(ws: Any) -> None:
        def on_frame(payload: str | bytes) -> None:
            frame = json.loads(payload)
            if frame.get("type") == "move":
                sent.append(frame)

        ws.on("framesent", on_frame)

    page.on("websocket", on_socket)
    return sent


def box(page: Any, selector: str) -> tuple[float, float, float, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not laid out"
    return (found["x"], found["y"], found["width"], found["height"])


def test_a_large_board_on_a_phone_zooms_and_confirms_moves(
    new_page: Any, create_room: Any, screenshot: Any
) -> None:
    room = create_room({"rows": 15, "cols": 15, "k": 5})
    xena = new_page(name="Xena", phone=True)
    sent = sent_moves(xena)
    seat(xena, room, "X")
    otto = new_page(name="Otto")
    seat(otto, room, "O")
    expect(status_line(xena)).to_have_text("Your move")

    zoom = xena.get_by_role("button", name="Zoom")
    confirm = xena.get_by_role("button", name="Confirm moves")
    expect(zoom).to_have_attribute(PRESSED, "false")
    expect(confirm).to_have_attribute(PRESSED, "false")  # off until chosen
    expect(otto.locator(".board-tools")).to_be_hidden()  # a desktop has no tools

    # Confirm moves: the first tap selects (nothing is sent), the second on it plays.
    confirm.tap()
    expect(confirm).to_have_attribute(PRESSED, "true")
    cell(xena, 8, 8).tap()
    expect(cell(xena, 8, 8)).to_have_class(re.compile(r"\bselected\b"))
    expect_cell(xena, 8, 8, "empty")
    cell(xena, 7, 7).tap()  # another cell moves the selection
    expect(cell(xena, 7, 7)).to_have_class(re.compile(r"\bselected\b"))
    expect(xena.locator(".cell.selected")).to_have_count(1)
    expect(moves(xena)).to_have_count(0)
    assert sent == [], "a selecting tap sent a move"
    screenshot(xena, "confirm-selected", sizes=("phone",))
    cell(xena, 7, 7).tap()
    expect_cell(otto, 7, 7, "X")
    expect(xena.locator(".cell.selected")).to_have_count(0)
    assert len(sent) == 1 and (sent[0]["row"], sent[0]["col"]) == (6, 6)

    # A desktop click plays at once.
    cell(otto, 1, 1).click()
    expect_cell(xena, 1, 1, "O")

    # Zoom: the board twice as wide in the same box, which scrolls; the page does not.
    frame_before = box(xena, ".board-frame")
    cell_before = box(xena, ".board .cell >> nth=0")[2]
    zoom.tap()
    expect(zoom).to_have_attribute(PRESSED, "true")
    expect(xena.locator(".board-frame")).to_have_class(re.compile(r"\bzoomed\b"))
    frame_after = box(xena, ".board-frame")
    assert all(abs(a - b) < 0.5 for a, b in zip(frame_before, frame_after, strict=True)), (
        "zooming moved or resized the board's box"
    )
    cell_after = box(xena, ".board .cell >> nth=0")[2]
    assert cell_after >= 1.9 * cell_before, f"cells {cell_before:.0f} -> {cell_after:.0f} px"
    assert cell_after >= 40, f"a zoomed cell is {cell_after:.0f} px, too small for a finger"
    scrolls = xena.locator(".board-frame").evaluate(
        "f => [f.scrollWidth > f.clientWidth, getComputedStyle(f).overflowX,"
        " getComputedStyle(f).touchAction]"
    )
    assert scrolls[0] is True and scrolls[1] == "auto", scrolls
    # one finger pans the box, two pinch-zoom (manipulation = pan-x pan-y pinch-zoom)
    assert scrolls[2] == "manipulation", scrolls
    screenshot(xena, "board-zoomed", sizes=("phone",))
    # A zoomed board still confirms: select, then play.
    cell(xena, 9, 9).tap()
    expect(cell(xena, 9, 9)).to_have_class(re.compile(r"\bselected\b"))
    cell(xena, 9, 9).tap()
    expect_cell(otto, 9, 9, "X")
    zoom.tap()
    expect(xena.locator(".board-frame")).not_to_have_class(re.compile(r"\bzoomed\b"))

    # The choice is remembered in this browser.
    xena.reload()
    expect(xena.get_by_role("button", name="Confirm moves")).to_have_attribute(PRESSED, "true")
    expect(xena.get_by_role("button", name="Zoom")).to_have_attribute(PRESSED, "false")
    stored = xena.evaluate("localStorage.getItem('ttt.pref.confirm')")
    assert stored == "true"


def test_a_small_board_on_a_phone_has_no_tools(new_page: Any, create_room: Any) -> None:
    room = create_room()
    ada = new_page(PHONE, name="Ada", phone=True)
    ada.add_init_script("localStorage.setItem('ttt.pref.confirm', 'true')")
    seat(ada, room, "X")
    bob = seat(new_page(name="Bob"), room, "O")
    expect(status_line(ada)).to_have_text("Your move")
    expect(ada.locator(".board-tools")).to_be_hidden()
    cell(ada, 2, 2).tap()  # plays at once: a 3x3 cell is big enough for a finger
    expect_cell(bob, 2, 2, "X")
