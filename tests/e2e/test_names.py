"""Names: the invite page asks for one (prefilled: the stored name, else a neutral guest
name), but not the creator who gave it in the lobby nor a page that holds its seat; every
text names the person and not a mark (marks change hands at a rematch), and a stored name
the server would refuse is cleaned on load instead of breaking the game link."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import (
    button,
    cell,
    custom_game,
    expect_cell,
    join_button,
    name_field,
    player,
    prompt,
    role_badge,
    seat,
    status_line,
)

pytestmark = pytest.mark.e2e


def test_the_invite_asks_for_a_name_and_every_text_uses_it(
    new_page: Any, create_room: Any, screenshot: Any
) -> None:
    room = create_room()
    ada = seat(new_page(name="Ada"), room)
    grace = new_page()  # a browser that never gave a name
    grace.goto(f"/r/{room}")
    expect(grace.get_by_role("heading", name="Ada invites you to play Classic")).to_be_visible()
    field = grace.get_by_role("textbox", name="Your name")
    expect(field).to_be_focused()
    expect(field).to_have_value(re.compile(r"^Guest [0-9]{4}$"))
    expect(role_badge(grace)).to_have_text("")  # not seated before answering
    expect(status_line(ada)).to_have_text("Waiting for an opponent to join")
    screenshot(grace, "invite-name")

    field.fill("   ")
    join_button(grace).click()
    expect(grace.get_by_role("alert").filter(has_text="Type a name")).to_be_visible()
    expect(field).to_have_attribute("aria-invalid", "true")
    field.fill("  Grace  ")
    join_button(grace).click()
    expect(role_badge(grace)).to_have_text("You play O")
    expect(player(ada, "O")).to_contain_text("Grace")
    stored = grace.evaluate("localStorage.getItem('ttt.name')")
    assert json.loads(stored) == "Grace"

    cell(ada, 2, 2).click()
    expect_cell(grace, 2, 2, "X")
    cell(grace, 1, 1).click()
    expect_cell(ada, 1, 1, "O")
    button(grace, "Resign").click()
    button(grace, "Yes, resign").click()
    button(ada, "Rematch").click()
    button(grace, "Accept rematch").click()
    expect(role_badge(grace)).to_have_text("You play X")

    # Grace plays X now; what Ada reads names Grace, never a mark.
    cell(grace, 1, 1).click()
    expect_cell(ada, 1, 1, "X")
    expect(status_line(grace)).to_have_text("Ada (O) to move")
    button(grace, "Ask to take back").click()
    expect(prompt(ada, "takeback")).to_contain_text("Grace asks to take back a move.")
    for page in (ada, grace):
        expect(page.locator("body")).not_to_contain_text(re.compile(r"Player [XO]"))


def test_a_stored_name_the_server_would_refuse_is_cleaned_on_load(
    new_page: Any, create_room: Any
) -> None:
    room = create_room()
    seat(new_page(name="Ada"), room)
    long_name = "\u0007  " + "Bartholomew-" * 4 + "\u200b  "  # 48 letters, control characters
    bart = new_page(name=long_name)
    bart.goto(f"/r/{room}")  # the question offers the stored name cleaned: the join works
    shown = ("Bartholomew-" * 4)[:32]
    expect(name_field(bart)).to_have_value(shown)
    join_button(bart).click()
    expect(role_badge(bart)).to_have_text("You play O")
    expect(player(bart, "O")).to_contain_text(shown)
    expect(bart.get_by_role("alert").filter(has_text="name")).to_have_count(0)


def test_the_stored_name_is_offered_can_be_changed_and_a_reload_asks_no_more(
    new_page: Any, create_room: Any
) -> None:
    room = create_room()
    ada = seat(new_page(name="Ada"), room, "X")
    grace = new_page(name="Grace")
    grace.goto(f"/r/{room}")
    field = name_field(grace)
    expect(field).to_have_value("Grace")  # a stored name is offered, not taken unasked
    expect(field).to_be_focused()
    expect(role_badge(grace)).to_have_text("")
    field.fill("Grace H.")
    join_button(grace).click()
    expect(role_badge(grace)).to_have_text("You play O")
    expect(player(ada, "O")).to_contain_text("Grace H.")
    assert json.loads(grace.evaluate("localStorage.getItem('ttt.name')")) == "Grace H."

    grace.reload()  # the seat is held: it is resumed, with its name, and nothing is asked
    expect(role_badge(grace)).to_have_text("You play O")
    expect(name_field(grace)).to_have_count(0)
    expect(player(grace, "O")).to_contain_text("Grace H.")
    expect(player(ada, "O")).to_contain_text("Grace H.")


def test_whoever_creates_a_room_is_seated_there_without_a_question(new_page: Any) -> None:
    ada = new_page()  # no stored name: the one typed in the lobby is the one shown
    ada.goto("/")
    custom_game(ada)
    ada.get_by_role("textbox", name="Your name").fill("Ada L.")
    ada.get_by_role("radio", name=re.compile("^Classic")).check()
    ada.get_by_role("button", name="Create game").click()  # the name was given here
    expect(role_badge(ada)).to_have_text("You play X")
    expect(name_field(ada)).to_have_count(0)
    room = ada.url.rsplit("/", 1)[-1]
    assert ada.evaluate(f"localStorage.getItem('ttt.created.{room}')") is None  # seat held

    bob = seat(new_page(name="Bob"), room, "O")  # anyone else is asked
    expect(player(bob, "X")).to_contain_text("Ada L.")
    cell(ada, 2, 2).click()
    expect_cell(bob, 2, 2, "X")
    cell(bob, 1, 1).click()
    expect_cell(ada, 1, 1, "O")
    button(ada, "Resign").click()
    button(ada, "Yes, resign").click()
    button(bob, "New game, same rules").click()  # a room of his own: seated, not asked
    expect(bob).not_to_have_url(re.compile(rf"/r/{room}$"))
    expect(role_badge(bob)).to_have_text("You play X")
    expect(name_field(bob)).to_have_count(0)
    expect(player(bob, "X")).to_contain_text("Bob")
