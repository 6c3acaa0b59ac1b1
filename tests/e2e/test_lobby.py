"""The lobby: public rooms are listed and kept up to date, rules are checked by the
server, rooms are joined by code or link; screenshots of the lobby."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import custom_game, join_button, name_field, role_badge, seat

pytestmark = pytest.mark.e2e


def test_the_lobby_lists_a_new_public_room_and_its_spectator_count(
    new_page: Any, create_room: Any, screenshot: Any
) -> None:
    lobby = new_page()
    lobby.goto("/")
    expect(lobby.get_by_role("heading", name="Public games")).to_be_visible()

    room = create_room({"rows": 6, "cols": 7, "k": 4, "gravity": True}, public=True)
    hidden = create_room(public=False)
    item = lobby.locator(f'.room-item[data-room-id="{room}"]')
    expect(item).to_be_visible()  # appears without a reload
    expect(item).to_contain_text("Connect Four")
    expect(item.locator(".room-watchers .count")).to_have_text("0")
    expect(item.get_by_role("link", name=re.compile("^Join"))).to_be_visible()

    watcher = new_page()
    watcher.goto(f"/r/{room}/watch")
    expect(role_badge(watcher)).to_have_text("Spectating")
    expect(item.locator(".room-watchers .count")).to_have_text("1")

    player = new_page(name="Pia")
    seat(player, room, "X")
    expect(item).to_contain_text("Pia")

    opponent = new_page(name="Quinn")
    seat(opponent, room, "O")
    live = lobby.locator(f'[data-list=live-rooms] .room-item[data-room-id="{room}"]')
    expect(live).to_contain_text("Quinn")  # moved from "waiting" to "playing now"
    expect(live.get_by_role("link", name=re.compile("^Join"))).to_have_count(0)
    expect(live.locator(".room-watchers .count")).to_have_text("1")

    watcher.close()
    expect(live.locator(".room-watchers .count")).to_have_text("0")
    expect(lobby.locator(f'.room-item[data-room-id="{hidden}"]')).to_have_count(0)
    fresh = create_room({"rows": 15, "cols": 15, "k": 5}, public=True)
    waiting = lobby.locator(f'[data-list=open-rooms] .room-item[data-room-id="{fresh}"]')
    expect(waiting).to_be_visible()
    screenshot(lobby, "lobby")


def test_creating_a_room_with_impossible_rules_shows_the_server_error_on_the_field(
    new_page: Any,
) -> None:
    page = new_page(phone=True)
    page.goto("/")
    custom_game(page)
    expect(page.get_by_role("spinbutton", name="In a row")).to_be_hidden()  # preset rules
    page.get_by_role("radio", name=re.compile("^Custom")).check()
    page.get_by_role("spinbutton", name="In a row").fill("7")
    page.get_by_role("button", name="Create game").click()
    error = page.locator(".create-form .form-error")
    expect(error).to_contain_text("Those rules cannot be played")
    expect(error).to_contain_text("7 in a row")
    k = page.get_by_role("spinbutton", name="In a row")
    expect(k).to_have_attribute("aria-invalid", "true")
    expect(page).to_have_url(re.compile(r"/$"))

    page.get_by_role("radio", name=re.compile("^Gomoku")).check()
    expect(page.get_by_role("spinbutton", name="In a row")).to_be_hidden()
    expect(error).to_be_hidden()
    page.get_by_role("radio", name=re.compile("^Private")).check()
    page.get_by_role("button", name="Create game").click()
    expect(page).to_have_url(re.compile(r"/r/[A-Za-z0-9_-]{22}$"))  # a private, unguessable id
    expect(page.get_by_role("gridcell")).to_have_count(225)


def test_join_by_code_or_link(new_page: Any, create_room: Any) -> None:
    room = create_room()
    page = new_page(name="Jo")
    page.goto("/")
    code = page.get_by_label("Room code or link")
    code.fill("nosuchroom")
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page.locator(".join-form .form-error")).to_contain_text("No such game")

    code.fill(room)
    page.get_by_role("button", name="Join", exact=True).click()
    expect(page).to_have_url(re.compile(rf"/r/{room}$"))
    expect(name_field(page)).to_have_value("Jo")  # not its creator: the invite's question
    join_button(page).click()
    expect(role_badge(page)).to_have_text("You play X")

    other = new_page()
    other.goto("/")
    other.get_by_label("Room code or link").fill(f"http://example.invalid/r/{room}")
    other.get_by_role("button", name="Watch", exact=True).click()
    expect(other).to_have_url(re.compile(rf"/r/{room}/watch$"))
    expect(role_badge(other)).to_have_text("Spectating")


def test_a_full_room_offers_to_watch_and_a_missing_room_says_so(
    new_page: Any, create_room: Any
) -> None:
    room = create_room()
    for name in ("Ann", "Ben"):
        seat(new_page(name=name), room)
    third = new_page(name="Cy")
    third.goto(f"/r/{room}")  # full: no name asked, the notice explains
    notice = third.locator(".notice[data-code=room_full]")
    expect(notice).to_contain_text("Every seat is taken")
    third.get_by_role("button", name="Watch the game").click()
    expect(role_badge(third)).to_have_text("Spectating")
    expect(third).to_have_url(re.compile(rf"/r/{room}/watch$"))
    expect(notice).to_be_hidden()

    lost = new_page()
    lost.goto("/r/doesnotexist")
    expect(lost.locator(".notice[data-code=room_not_found]")).to_be_visible()
    expect(lost.get_by_role("link", name="Back to the lobby")).to_be_visible()
    expect(lost.locator(".conn")).to_have_text("Disconnected")


def test_room_options_refused_by_the_server_are_shown_on_their_field(new_page: Any) -> None:
    lobby = new_page()
    lobby.goto("/")
    page = new_page(name="Olga")
    page.goto("/")
    custom_game(page)
    page.get_by_role("radio", name=re.compile("^Custom")).check()
    page.get_by_label("Players").select_option("3")
    page.get_by_role("radio", name=re.compile("^The computer")).check()
    page.get_by_role("button", name="Create game").click()
    error = page.locator(".create-form .form-error")
    expect(error).to_contain_text("Those options cannot be used")
    expect(error).to_contain_text("two-player")
    expect(page.get_by_label("Bot level")).to_have_attribute("aria-invalid", "true")

    page.get_by_label("Players").select_option("2")
    page.get_by_role("radio", name="Other", exact=True).check()
    page.get_by_role("spinbutton", name="Minutes each").fill("0")
    page.get_by_role("button", name="Create game").click()
    expect(error).to_contain_text("time_control.initial")
    expect(page.get_by_role("spinbutton", name="Minutes each")).to_have_attribute(
        "aria-invalid", "true"
    )

    page.get_by_role("spinbutton", name="Minutes each").fill("2")
    page.get_by_role("spinbutton", name="Increment (s)").fill("1")
    page.get_by_role("button", name="Create game").click()
    expect(role_badge(page)).to_have_text("You play X")
    info = page.locator(".info-card")
    expect(info).to_contain_text("2 + 1")
    expect(info).to_contain_text("Bot (medium)")
    room = page.url.rsplit("/", 1)[1]
    item = lobby.locator(f'.room-item[data-room-id="{room}"]')
    expect(item).to_contain_text("2 + 1")
    expect(item).to_contain_text("vs bot (medium)")
