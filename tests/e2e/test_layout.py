"""A still layout: the board keeps its box from the first paint (the invite is drawn over it
while a seat is free), the page's answers to clicks appear in the status line's slot, moving
nothing below them, the big clocks stand beside the board and move nothing, and the board
with its replay bar fits a 1280x800 screen."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import (
    cell,
    clock,
    expect_cell,
    move_error,
    seat,
    status_line,
)
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
    seat(ada, room, "X")
    invite = ada.get_by_label("Invite link")
    expect(invite).to_be_visible()
    before = box(ada, ".board")
    replay = box(ada, ".replay")
    if viewport is DESKTOP:
        screenshot(ada, "waiting")

    bob = new_page(name="Bob")
    seat(bob, room, "O")
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


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_big_clocks_beside_the_board_show_tenths_and_move_nothing(
    new_page: Any, create_room: Any, screenshot: Any, viewport: dict[str, int]
) -> None:
    room = create_room(time_control={"initial": 8, "increment": 0})
    ada = new_page(viewport, name="Ada", phone=viewport is PHONE)
    seat(ada, room, "X")
    bob = new_page(name="Bob")
    seat(bob, room, "O")
    rail = ada.locator(".clock-rail")
    expect(rail).to_be_visible()
    # The opponent's clock at the top, the player's own at the bottom; the players' cards
    # carry no clock (one place for each fact).
    expect(rail.locator(".big-clock").first).to_have_attribute("data-mark", "O")
    expect(rail.locator(".big-clock").last).to_have_attribute("data-mark", "X")
    expect(ada.locator(".player .clock")).to_have_count(0)
    expect(clock(ada, "X")).to_have_text("0:08.0")
    before = box(ada, ".board")
    replay = box(ada, ".replay")
    top, own = box(ada, '.big-clock[data-mark="O"]'), box(ada, '.big-clock[data-mark="X"]')
    if viewport is DESKTOP:  # beside the board, level with it
        assert top[0] >= before[0] + before[2] and own[0] >= before[0] + before[2]
        assert top[1] < own[1]
    else:  # above and below it
        assert top[1] + top[3] <= before[1] and own[1] >= before[1] + before[3]
    # Big: the digits are larger than the page's body text.
    size = float(clock(ada, "X").evaluate("e => parseFloat(getComputedStyle(e).fontSize)"))
    assert size >= 24, f"the clock's digits are {size}px"

    cell(ada, 2, 2).click()
    expect_cell(bob, 2, 2, "X")
    cell(bob, 1, 1).click()
    expect_cell(ada, 1, 1, "O")
    # X's clock now runs, lit, in tenths (under 10 s from the start).
    expect(clock(ada, "X")).to_have_class(re.compile(r"\brunning\b"))
    expect(ada.locator('.big-clock[data-mark="X"]')).to_have_class(re.compile(r"\brunning\b"))
    expect(clock(ada, "X")).to_have_text(re.compile(r"^0:0[0-7]\.\d$"))
    expect(clock(ada, "O")).not_to_have_class(re.compile(r"\brunning\b"))
    assert same(box(ada, ".board"), before), "the board moved when the clock started"
    assert same(box(ada, ".replay"), replay), "the replay bar moved when the clock started"
    screenshot(ada, "clock-tenths", sizes=("desktop" if viewport is DESKTOP else "phone",))


@pytest.mark.parametrize(
    "rules",
    [{}, {"rows": 4, "cols": 4, "layers": 4, "k": 4}, {"rows": 15, "cols": 15, "k": 5}],
    ids=["classic", "3d", "15x15"],
)
def test_the_board_and_the_replay_bar_fit_the_first_screen(
    new_page: Any, create_room: Any, screenshot: Any, rules: dict[str, Any]
) -> None:
    room = create_room(rules, time_control={"initial": 300, "increment": 2})
    ada = seat(new_page(DESKTOP, name="Ada"), room)
    seat(new_page(name="Bob"), room)
    expect(status_line(ada)).to_have_text("Your move")
    height = DESKTOP["height"]
    for part in (".board", ".replay", ".clock-rail"):
        _x, y, _w, h = box(ada, part)
        assert y >= 0 and y + h <= height, f"{part} ends at {y + h}px, below the first screen"
    scroll = ada.evaluate("document.documentElement.scrollHeight")
    assert scroll <= height, f"the page scrolls: {scroll}px tall at {height}px"
    name = "3d" if "layers" in rules else "big" if rules else "classic"
    screenshot(ada, f"first-screen-{name}", sizes=("desktop",))
