"""The board keeps its box from the first paint to the rematch, on desktop and phone: the
invited player's Join, every move, the result banner with Rematch and the next game move
nothing, for either player and a spectator (the result, the rematch and the status live
over the players' cards and beside or over the board)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import (
    X_WINS,
    banner,
    button,
    cell,
    expect_cell,
    name_field,
    role_badge,
    status_line,
)
from tests.e2e.conftest import DESKTOP, PHONE

pytestmark = pytest.mark.e2e

Box = tuple[float, float, float, float]


def board_box(page: Any) -> Box:
    found = page.locator(".board .grid").first.bounding_box()
    assert found is not None, "the board is not laid out"
    return (found["x"], found["y"], found["width"], found["height"])


class Still:
    """The first box each page's board had, and every later box held against it."""

    def __init__(self) -> None:
        self.first: dict[str, Box] = {}

    def check(self, page: Any, who: str, moment: str) -> None:
        now = board_box(page)
        first = self.first.setdefault(who, now)
        moved = [abs(a - b) for a, b in zip(first, now, strict=True)]
        assert max(moved) <= 1, f"{who}'s board moved at {moment}: {first} -> {now}"


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_the_board_never_moves_from_first_paint_through_the_end_and_a_rematch(
    new_page: Any, create_room: Any, viewport: dict[str, int]
) -> None:
    phone = viewport is PHONE
    room = create_room(time_control={"initial": 300, "increment": 2})
    still = Still()
    ada = new_page(viewport, name="Ada", phone=phone)
    ada.goto(f"/r/{room}")
    expect(cell(ada, 1, 1)).to_be_visible()
    still.check(ada, "ada", "the first paint")
    button(ada, "Join as X").click()
    expect(role_badge(ada)).to_have_text("You play X")
    still.check(ada, "ada", "her join")

    watcher = new_page(viewport, phone=phone)
    watcher.goto(f"/r/{room}/watch")
    expect(role_badge(watcher)).to_have_text("Spectating")
    still.check(watcher, "the watcher", "the first paint")

    bob = new_page(viewport, name="Bob", phone=phone)
    bob.goto(f"/r/{room}")
    expect(name_field(bob)).to_be_visible()
    still.check(bob, "bob", "the invite's first paint")
    button(bob, "Join as O").click()
    expect(role_badge(bob)).to_have_text("You play O")
    expect(status_line(ada)).to_have_text("Your move")
    still.check(bob, "bob", "his join")
    still.check(ada, "ada", "Bob's join")

    for mark, (row, col) in X_WINS:
        page, other = (ada, bob) if mark == "X" else (bob, ada)
        cell(page, row, col).click()
        expect_cell(other, row, col, mark)
        still.check(ada, "ada", f"{mark}'s move")
        still.check(bob, "bob", f"{mark}'s move")
        still.check(watcher, "the watcher", f"{mark}'s move")

    expect(banner(ada)).to_contain_text("You won!")
    expect(banner(bob)).to_contain_text("You lost")
    still.check(ada, "ada", "the result")
    still.check(bob, "bob", "the result")
    expect(banner(watcher)).to_contain_text("Ada (X) won")
    still.check(watcher, "the watcher", "the result")

    banner(bob).get_by_role("button", name="Rematch", exact=True).click()
    expect(banner(ada)).to_contain_text("wants a rematch")
    still.check(ada, "ada", "the rematch offer")
    still.check(bob, "bob", "his rematch offer")
    banner(ada).get_by_role("button", name="Accept rematch", exact=True).click()
    expect(role_badge(ada)).to_have_text("You play O")
    expect(role_badge(bob)).to_have_text("You play X")
    expect(status_line(bob)).to_have_text("Your move")
    still.check(ada, "ada", "the rematch")
    still.check(bob, "bob", "the rematch")
    cell(bob, 2, 2).click()
    expect_cell(ada, 2, 2, "X")
    still.check(ada, "ada", "the rematch's first move")
    still.check(bob, "bob", "the rematch's first move")
    still.check(watcher, "the watcher", "the rematch's first move")
