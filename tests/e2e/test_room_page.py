"""A room page served with its room (server/web/room_page.py) in real Chromium: the page draws
the room and asks an invitee's name before its WebSocket has said anything, with no API
call, and a page whose socket has not answered yet shows no "Reconnecting…" veil."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import (
    cell,
    expect_cell,
    name_field,
    player,
    role_badge,
    seat,
)

pytestmark = pytest.mark.e2e


def _silent_server(page: Any) -> list[str]:
    """Route the page's WebSocket to nowhere: it opens, but nothing ever answers (the
    messages the page sends are kept)."""
    sent: list[str] = []

    def hold(ws: Any) -> None:
        ws.on_message(lambda message: sent.append(str(message)))

    page.route_web_socket("**/ws/**", hold)
    return sent


def test_the_invite_asks_with_the_rooms_details_before_any_round_trip(
    new_page: Any, create_room: Any
) -> None:
    room = create_room()
    seat(new_page(name="Ada"), room, "X")
    grace = new_page(name="Grace")
    asked: list[str] = []
    grace.on("request", lambda request: asked.append(request.url))
    sent = _silent_server(grace)
    grace.goto(f"/r/{room}")
    expect(grace.get_by_role("heading", name="Ada invites you to play Classic")).to_be_visible()
    expect(name_field(grace)).to_have_value("Grace")
    assert not [url for url in asked if "/api/" in url], asked  # the page had the room
    assert sent == []  # nor was the socket needed to ask


def test_a_watch_page_draws_the_game_before_its_socket_answers(
    new_page: Any, create_room: Any
) -> None:
    room = create_room()
    ada = seat(new_page(name="Ada"), room, "X")
    bob = seat(new_page(name="Bob"), room, "O")
    cell(ada, 2, 2).click()
    expect_cell(bob, 2, 2, "X")
    cell(bob, 1, 1).click()
    expect_cell(ada, 1, 1, "O")

    watcher = new_page()
    sent = _silent_server(watcher)
    watcher.goto(f"/r/{room}/watch")
    expect_cell(watcher, 2, 2, "X")
    expect_cell(watcher, 1, 1, "O")
    expect(player(watcher, "X")).to_contain_text("Ada")
    expect(player(watcher, "O")).to_contain_text("Bob")
    expect(watcher.locator(".line-title")).to_have_count(0)  # no veil: nothing was lost
    expect(role_badge(watcher)).to_have_text("")  # not yet a spectator: no welcome yet
    watcher.wait_for_function("() => true")  # one turn of the page's loop
    assert all('"spectator"' in message for message in sent)  # at most its join, unanswered
