"""The small things a player notices: the result read from the viewer's seat ("You won!",
"You lost", "Draw"; a spectator reads "<name> won"), each player's card on its own side
across rematches (though the marks swap), a premove that looks unlike the hover preview,
and a zoomed board on a phone that keeps its coordinates in view."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import (
    X_WINS,
    banner,
    cell,
    expect_cell,
    role_badge,
    seat,
    status_line,
)

pytestmark = pytest.mark.e2e

# A 3×3 draw, cells as the page labels them (X, O, X, ...): no line for anyone.
DRAW = [(2, 2), (1, 1), (1, 2), (3, 2), (2, 1), (2, 3), (1, 3), (3, 1), (3, 3)]


def card_names(page: Any) -> list[str]:
    names: list[str] = page.locator(".player .name-text").all_inner_texts()
    return names


def play(first: Any, second: Any, cells: list[tuple[int, int]]) -> None:
    for i, (row, col) in enumerate(cells):
        page, other = (first, second) if i % 2 == 0 else (second, first)
        cell(page, row, col).click()
        expect_cell(other, row, col, "X" if i % 2 == 0 else "O")


def title(page: Any) -> Any:
    return banner(page).locator(".banner-title")


def test_the_result_is_read_from_each_seat_and_the_cards_keep_their_sides(
    new_page: Any, create_room: Any
) -> None:
    room = create_room()
    ada = seat(new_page(name="Ada"), room, "X")
    bob = seat(new_page(name="Bob"), room, "O")
    watcher = new_page()
    watcher.goto(f"/r/{room}/watch")
    expect(status_line(watcher)).to_have_text("Ada (X) to move")
    sides = {page: card_names(page) for page in (ada, bob, watcher)}
    assert all(names == ["Ada", "Bob"] for names in sides.values()), sides

    play(ada, bob, [cell for _mark, cell in X_WINS])
    expect(title(ada)).to_have_text("You won!")
    expect(title(bob)).to_have_text("You lost")
    expect(banner(bob)).to_contain_text("Ada won")
    expect(title(watcher)).to_have_text("Ada (X) won")

    banner(ada).get_by_role("button", name="Rematch", exact=True).click()
    banner(bob).get_by_role("button", name="Accept rematch", exact=True).click()
    expect(role_badge(bob)).to_have_text("You play X")
    expect(watcher.locator(".player").first).to_have_attribute("data-mark", "O")
    for page in (ada, bob, watcher):  # Ada still on the left, though she now plays O
        assert card_names(page) == ["Ada", "Bob"], card_names(page)

    play(bob, ada, DRAW)
    for page in (ada, bob, watcher):
        expect(title(page)).to_have_text("Draw")


STYLE = """e => { const s = getComputedStyle(e), p = getComputedStyle(e.querySelector('.piece'));
  const line = getComputedStyle(e.querySelector('.piece path, .piece circle'));
  return {background: s.backgroundColor, outline: s.outlineStyle, opacity: p.opacity,
          dash: line.strokeDasharray}; }"""


def test_a_premove_looks_unlike_the_hover_preview(new_page: Any, create_room: Any) -> None:
    room = create_room()
    ada = seat(new_page(name="Ada"), room, "X")
    bob = seat(new_page(name="Bob"), room, "O")
    cell(ada, 2, 2).hover()  # her move: the preview's ghost under the pointer
    preview = ada.locator(".cell.preview")
    expect(preview).to_have_count(1)
    hover = preview.evaluate(STYLE)
    cell(ada, 2, 2).click()
    expect_cell(bob, 2, 2, "X")
    cell(ada, 1, 1).click(force=True)  # out of turn: a premove
    queued = ada.locator(".cell.premove")
    expect(queued).to_have_count(1)
    ada.mouse.move(0, 0)
    premove = queued.evaluate(STYLE)
    differ = [key for key in hover if hover[key] != premove[key]]
    assert len(differ) >= 3, f"premove {premove} looks like the preview {hover}"


def test_a_zoomed_large_board_on_a_phone_keeps_its_coordinates(
    new_page: Any, create_room: Any
) -> None:
    room = create_room({"rows": 15, "cols": 15, "k": 5})
    xena = seat(new_page(name="Xena", phone=True), room, "X")
    xena.get_by_role("button", name="Zoom").tap()
    frame = xena.locator(".board-frame")
    expect(frame).to_have_class("board-frame zoomed")
    frame.evaluate("f => { f.scrollLeft = f.scrollWidth; f.scrollTop = f.scrollHeight; }")
    xena.wait_for_function(
        "() => { const f = document.querySelector('.board-frame'); return f.scrollTop > 0"
        " && f.scrollLeft > 0; }"
    )
    # the column letters' bar at the box's top edge, the row numbers' at its left edge, and
    # the last letter and number (beside the cells now shown) inside the box
    seen = frame.evaluate(
        """f => { const box = f.getBoundingClientRect();
          const bar = (sel) => f.querySelector(sel).getBoundingClientRect();
          const within = (r) => r.left >= box.left - 1 && r.right <= box.right + 1
            && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
          const last = (sel) =>
            [...f.querySelectorAll(sel + ' span')].pop().getBoundingClientRect();
          return {cols: Math.abs(bar('.coords-cols').top - box.top) <= 1,
                  rows: Math.abs(bar('.coords-rows').left - box.left) <= 1,
                  lastCol: within(last('.coords-cols')),
                  lastRow: within(last('.coords-rows'))}; }"""
    )
    assert seen == {"cols": True, "rows": True, "lastCol": True, "lastRow": True}, seen
