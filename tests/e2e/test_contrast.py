"""Every visible text is readable: at least 4.5:1 against what is behind it, in the light
and the dark theme, on the lobby and the game page in the states a player sees
(tests/e2e/contrast.py computes it in Chromium)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import (
    banner,
    cell,
    custom_game,
    expect_cell,
    join_button,
    role_badge,
    say,
    seat,
)
from tests.e2e.contrast import contrast, low_contrast

pytestmark = pytest.mark.e2e


def both_themes(page: Any, state: str) -> list[str]:
    return [
        f"{state} {failure}"
        for scheme in ("light", "dark")
        for failure in low_contrast(page, scheme)
    ]


def test_all_text_has_enough_contrast_in_light_and_dark(
    new_page: Any, create_room: Any, screenshot: Any
) -> None:
    failures: list[str] = []
    public = create_room(public=True)
    lobby = new_page(name="Lia")
    lobby.goto("/")
    custom_game(lobby)
    expect(lobby.locator(f'.room-item[data-room-id="{public}"]')).to_be_visible()
    failures += both_themes(lobby, "lobby")

    room = create_room({}, time_control={"initial": 180, "increment": 2})
    invited = new_page()
    invited.goto(f"/r/{room}")
    expect(invited.get_by_role("textbox", name="Your name")).to_be_visible()
    failures += both_themes(invited, "name question")

    ada = seat(new_page(name="Ada"), room)
    failures += both_themes(ada, "waiting")
    join_button(invited).click()
    expect(role_badge(invited)).to_have_text("You play O")
    watcher = new_page()
    watcher.goto(f"/r/{room}/watch")
    expect(role_badge(watcher)).to_have_text("Spectating")

    cell(ada, 2, 2).click()
    expect_cell(invited, 2, 2, "X")
    say(invited, "good luck")
    cell(ada, 1, 1).click(force=True)  # a premove
    cell(ada, 2, 2).click(force=True)  # a hint: taken
    failures += both_themes(ada, "playing")
    failures += both_themes(invited, "to move")
    failures += both_themes(watcher, "spectating")

    ada.context.set_offline(True)
    expect(ada.locator(".line-overlay")).to_contain_text("Reconnecting")
    failures += both_themes(ada, "offline")
    ada.context.set_offline(False)
    expect(ada.locator(".line-overlay")).to_be_hidden()

    cell(invited, 1, 2).click()
    expect_cell(ada, 1, 2, "O")
    cell(ada, 1, 1).click()
    expect_cell(invited, 1, 1, "X")
    cell(invited, 1, 3).click()
    expect_cell(ada, 1, 3, "O")
    cell(ada, 3, 3).click()
    expect(banner(ada)).to_contain_text("You won!")
    expect(banner(watcher)).to_contain_text(re.compile("won"))
    for page, state in ((ada, "won"), (invited, "lost"), (watcher, "finished")):
        failures += both_themes(page, state)

    # Without a clock the cards carry a "to move" tag in the mover's colour.
    untimed = create_room()
    xia = seat(new_page(name="Xia"), untimed)
    oda = seat(new_page(name="Oda"), untimed)
    expect(xia.locator(".player.mark-X .turn-tag")).to_have_text("to move")
    cell(xia, 2, 2).click()
    expect(xia.locator(".player.mark-O .turn-tag")).to_have_text("to move")
    failures += both_themes(xia, "no clock, O to move")
    failures += both_themes(oda, "no clock, own move")
    assert failures == [], "\n".join(failures)


def test_every_form_field_and_its_placeholder_has_enough_contrast(
    new_page: Any, create_room: Any
) -> None:
    """Input values and placeholders are no text nodes: the check reads their computed
    colours (``::placeholder`` included) on every page that has a form."""
    failures: list[str] = []
    checked: dict[str, set[str]] = {}
    room = create_room()
    ada = seat(new_page(name="Ada"), room)
    pages = {"lobby": new_page(), "tournaments": new_page(), "game": ada}
    pages["lobby"].goto("/")
    pages["tournaments"].goto("/tournaments")
    expect(pages["lobby"].locator('input[name="code"]')).to_be_visible()
    expect(pages["tournaments"].locator('input[name="tournament_name"]')).to_be_visible()
    expect(ada.locator('input[name="chat"]')).to_be_visible()
    for state, page in pages.items():
        for scheme in ("light", "dark"):
            found, fields = contrast(page, scheme)
            failures += [f"{state} {failure}" for failure in found]
            checked.setdefault(state, set()).update(fields)
    assert {"name::placeholder", "code::placeholder"} <= checked["lobby"], checked
    assert {"name::placeholder", "tournament_name::placeholder"} <= checked["tournaments"]
    assert {"chat", "chat::placeholder"} <= checked["game"], checked
    assert failures == [], "\n".join(failures)
