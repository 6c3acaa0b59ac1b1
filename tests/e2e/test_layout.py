"""A still layout: the board keeps its box from the first paint (the invite is drawn over it
while a seat is free), and the page's answers to clicks appear in the status line's slot,
moving nothing below them."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import cell, expect_cell, move_error, role_badge, status_line
from tests.e2e.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.e2e


def box(page: Any, selector: str) -> tuple[float, float, float, float]:
    found = page.locator(selector).bounding_box()
    assert found is not None, f"{selector} is not laid out"
    return (found["x"], found["y"], found["width"], found["height"])


def same(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return all(abs(x - y) < 0.5 for x, y in zip(a, b, strict=True))


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_board_keeps_its_box_when_the_opponent_joins_and_messages_move_nothing(
    new_page: Any, create_room: Any, screenshot: Any, viewport: dict[str, int]
) -> None:
    room = create_room()
    ada = new_page(viewport, name="Ada")
    ada.goto(f"/r/{room}")
    expect(role_badge(ada)).to_have_text("You play X")
    invite = ada.get_by_label("Invite link")
    expect(invite).to_be_visible()
    before = box(ada, ".board")
    replay = box(ada, ".replay")
    if viewport is DESKTOP:
        screenshot(ada, "waiting")

    bob = new_page(name="Bob")
    bob.goto(f"/r/{room}")
    expect(role_badge(bob)).to_have_text("You play O")
    expect(status_line(ada)).to_have_text("Your move")
    expect(invite).to_have_count(0)
    assert same(box(ada, ".board"), before), "the board moved or resized when Bob joined"
    assert same(box(ada, ".replay"), replay)

    cell(ada, 2, 2).click()
    expect_cell(bob, 2, 2, "X")
    cell(ada, 2, 2).click(force=True)  # taken: answered in the status slot
    expect(move_error(ada)).to_contain_text("b2 is taken")
    expect(status_line(ada)).to_be_hidden()
    assert same(box(ada, ".board"), before), "a message moved the board"
    assert same(box(ada, ".replay"), replay), "a message moved the replay bar"
    ada.get_by_role("button", name="Dismiss").click()
    expect(status_line(ada)).to_be_visible()
    assert same(box(ada, ".board"), before)
