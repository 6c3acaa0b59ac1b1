"""The invite page, for the invited: who invites, the rules and the clock, one "Join as O"
button with the stored name prefilled, and nothing about inviting someone else; the
player already seated still sees the link to share."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import button, name_field, role_badge, seat, status_line

pytestmark = pytest.mark.e2e


def test_the_invited_see_who_invites_the_rules_the_clock_and_one_join_button(
    new_page: Any, create_room: Any, screenshot: Any
) -> None:
    room = create_room(time_control={"initial": 300, "increment": 3})
    ada = seat(new_page(name="Ada"), room, "X")
    expect(ada.get_by_label("Invite link")).to_be_visible()  # the creator shares the link
    expect(button(ada, "Copy invite link")).to_be_visible()
    expect(status_line(ada)).to_have_text("Waiting for an opponent to join")

    bob = new_page(name="Bob")
    bob.goto(f"/r/{room}")
    card = bob.locator(".name-card")
    expect(bob.get_by_role("heading", name="Ada invites you to play Classic")).to_be_visible()
    expect(card).to_contain_text("3×3 · 3 in a row")
    expect(card).to_contain_text("5 + 3: 5 minutes each, 3 s more a move")
    expect(card).to_contain_text("You playO")  # the seat offered (term, then value)
    expect(name_field(bob)).to_have_value("Bob")  # the stored name
    join = bob.get_by_role("button", name="Join as O", exact=True)
    expect(join).to_be_visible()
    expect(card.get_by_role("button")).to_have_count(1)  # the one way on
    page_text = bob.locator("main").inner_text()
    for never in ("Waiting for", "invite link", "Invite someone", "opponent"):
        assert never not in page_text, f"the invited read {never!r}: {page_text}"
    expect(bob.get_by_label("Invite link")).to_have_count(0)
    screenshot(bob, "invite-page")

    join.click()
    expect(role_badge(bob)).to_have_text("You play O")
    expect(card).to_be_hidden()
    expect(status_line(bob)).to_have_text("Ada (X) to move")
    expect(status_line(ada)).to_have_text("Your move")
