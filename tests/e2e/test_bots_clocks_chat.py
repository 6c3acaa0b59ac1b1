"""Bots, clocks, chat, analysis and quick play in real browsers against the real server,
with screenshots of a game with clocks and chat, a bot game, and the spectator view
with analysis on."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import (
    banner,
    cell,
    chat_lines,
    clock,
    custom_game,
    evals,
    expect_cell,
    moves,
    player,
    prompt,
    role_badge,
    say,
    seat,
    status_line,
)

pytestmark = pytest.mark.e2e

# The human's preferences, best first: centre, corners, edges (1-based row, column).
PREFERENCE = [(2, 2), (1, 1), (3, 3), (1, 3), (3, 1), (1, 2), (2, 1), (2, 3), (3, 2)]


def empty(page: Any, row: int, col: int) -> bool:
    label = cell(page, row, col).get_attribute("aria-label") or ""
    return ", empty" in label


def test_the_perfect_bot_cannot_be_beaten_and_analysis_opens_after_the_game(
    new_page: Any, screenshot: Any
) -> None:
    page = new_page(name="Ada")
    page.goto("/")
    custom_game(page)
    page.get_by_role("radio", name=re.compile("^Classic")).check()
    page.get_by_role("radio", name=re.compile("^The computer")).check()
    expect(page.get_by_role("button", name="Quick play")).to_be_hidden()  # not against a bot
    page.get_by_label("Bot level").select_option("perfect")
    page.get_by_role("button", name="Create game").click()
    expect(page).to_have_url(re.compile(r"/r/[^/]+$"))
    expect(role_badge(page)).to_have_text("You play X")
    expect(player(page, "O")).to_contain_text("Bot (perfect)")
    expect(player(page, "O")).to_have_attribute("data-state", "bot")
    expect(page.locator(".info-card")).to_contain_text("Bot (perfect)")
    expect(page.get_by_role("button", name="Offer a draw")).to_have_count(0)  # bots do not

    # A takeback against a bot is granted at once: both the bot's reply and our move go.
    cell(page, 1, 1).click()
    expect(moves(page)).to_have_count(2)
    expect(status_line(page)).to_have_text("Your move")
    page.get_by_role("button", name="Take back", exact=True).click()
    expect(moves(page)).to_have_count(0)
    expect_cell(page, 1, 1, "empty")

    shot = False
    for _ in range(6):  # X moves at most five times on 3×3
        expect(status_line(page)).to_have_text(re.compile("^(Your move|Draw|You lost)$"))
        if banner(page).is_visible():
            break
        played = len(page.locator(".move-list .move").all())
        target = next((rc for rc in PREFERENCE if empty(page, *rc)), None)
        assert target is not None
        cell(page, *target).click()
        expect(moves(page)).not_to_have_count(played)
        if not shot and played >= 2:
            expect(status_line(page)).to_have_text(re.compile("Your move|Draw|You lost"))
            screenshot(page, "bot-game")
            shot = True
    expect(banner(page)).to_be_visible()
    expect(banner(page)).not_to_contain_text("You won")
    expect(banner(page)).to_contain_text(re.compile("Draw|Bot \\(perfect\\) won"))

    # The game is over: the player may now analyse it; the final position has no moves,
    # one move back there are values on the empty cells.
    switch = page.get_by_role("switch", name="Analysis")
    switch.click()
    expect(switch).to_have_attribute("aria-checked", "true")
    expect(page.locator(".analysis-card")).to_contain_text("The game is over on this board")
    page.get_by_role("button", name="Step back to see the values").click()
    expect(evals(page).first).to_be_visible()
    assert evals(page).count() >= 1


def test_a_timed_game_shows_clocks_counting_down_and_the_players_chat(
    new_page: Any, screenshot: Any
) -> None:
    ada = new_page(name="Ada")
    ada.goto("/")
    custom_game(ada)
    ada.get_by_role("radio", name=re.compile("^Classic")).check()
    ada.get_by_role("radio", name="3 + 2").check()
    ada.get_by_role("button", name="Create game").click()
    expect(role_badge(ada)).to_have_text("You play X")
    expect(ada.locator(".info-card")).to_contain_text("3 + 2")
    room = ada.url.rsplit("/", 1)[1]
    bob = seat(new_page(name="Bob", phone=True), room)

    for page in (ada, bob):
        expect(clock(page, "X")).to_have_text("3:00")
        expect(clock(page, "O")).to_have_text("3:00")
    # The clocks start after each player's first move, which has its own limit.
    expect(prompt(ada, "first-move")).to_contain_text(
        re.compile(r"Make your first move within \d+ s")
    )
    expect(prompt(bob, "first-move")).to_contain_text("Ada must make a first move")
    cell(ada, 2, 2).click()
    expect_cell(bob, 2, 2, "X")
    expect(prompt(bob, "first-move")).to_contain_text("Make your first move")
    cell(bob, 1, 1).click()
    expect_cell(ada, 1, 1, "O")
    expect(prompt(ada, "first-move")).to_have_count(0)

    # Now X's clock runs: counting down between events, on both screens.
    for page in (ada, bob):
        expect(clock(page, "X")).to_have_class(re.compile(r"\brunning\b"))
        expect(clock(page, "O")).not_to_have_class(re.compile(r"\brunning\b"))
        expect(clock(page, "X")).to_have_text(re.compile(r"^2:5\d$"))
    expect(clock(ada, "O")).to_have_text("3:00")  # a first move is free: no time, no increment

    say(ada, "good luck!")
    say(bob, "you too")
    for page in (ada, bob):
        expect(chat_lines(page)).to_have_count(2)
        expect(chat_lines(page).nth(0)).to_contain_text("Ada (X)")
        expect(chat_lines(page).nth(0)).to_contain_text("good luck!")
        expect(chat_lines(page).nth(1)).to_contain_text("you too")
    expect(ada.locator(".chat-card h2")).to_have_text("Players' chat")
    screenshot(ada, "clocks-chat")
    screenshot(bob, "clocks-chat-bob", sizes=("phone",))

    cell(ada, 1, 3).click()
    expect_cell(bob, 1, 3, "X")
    expect(clock(bob, "O")).to_have_class(re.compile(r"\brunning\b"))
    expect(clock(bob, "X")).not_to_have_class(re.compile(r"\brunning\b"))


def test_spectators_chat_apart_from_players_and_analyse_the_position(
    new_page: Any, create_room: Any, screenshot: Any
) -> None:
    room = create_room()
    ada = seat(new_page(name="Ada"), room)
    bob = seat(new_page(name="Bob"), room)
    watcher = new_page(name="Wendy")
    watcher.goto(f"/r/{room}/watch")
    expect(role_badge(watcher)).to_have_text("Spectating")
    cell(ada, 2, 2).click()
    expect_cell(bob, 2, 2, "X")
    cell(bob, 1, 2).click()  # an edge: X now wins with best play
    expect_cell(watcher, 1, 2, "O")

    # Players cannot analyse a game in progress, and are told why.
    expect(ada.get_by_role("switch", name="Analysis")).to_have_count(0)
    expect(ada.locator(".analysis-card")).to_contain_text("Analysis opens when the game is over")
    switch = watcher.get_by_role("switch", name="Analysis")
    expect(switch).to_have_attribute("aria-checked", "false")
    switch.click()
    expect(evals(watcher)).to_have_count(7)
    expect(watcher.locator('.eval[data-tone="win"]')).to_have_count(6)
    expect(watcher.locator('.eval[data-tone="win"]').first).to_have_text("W5")
    expect(watcher.locator('.eval[data-tone="draw"]')).to_have_count(1)
    expect(cell(watcher, 3, 2)).to_have_attribute(
        "aria-label", re.compile(r"empty, analysis: draw$")
    )
    expect(watcher.locator(".analysis-card")).to_contain_text("Ada (X) to move wins with best play")
    expect(evals(ada)).to_have_count(0)

    # Chat: each audience sees its own lines only.
    say(ada, "hi Bob")
    expect(chat_lines(bob)).to_have_count(1)
    say(watcher, "X is winning here")
    expect(chat_lines(watcher)).to_have_count(1)
    expect(chat_lines(watcher).first).to_contain_text("Wendy")
    expect(chat_lines(watcher).first).to_contain_text("X is winning here")
    expect(watcher.locator(".chat-card h2")).to_have_text("Spectators' chat")
    say(bob, "hello")
    for page in (ada, bob):
        expect(chat_lines(page)).to_have_count(2)
        expect(page.locator(".chat-lines")).not_to_contain_text("X is winning")
    expect(chat_lines(watcher)).to_have_count(1)
    expect(watcher.locator(".chat-lines")).not_to_contain_text("hi Bob")
    screenshot(watcher, "spectator-analysis")
    watcher.emulate_media(color_scheme="dark")
    screenshot(watcher, "spectator-analysis-dark", sizes=("phone",))
    watcher.emulate_media(color_scheme="light")

    # The analysis follows the position: the next move changes the values.
    cell(ada, 1, 1).click()
    expect_cell(watcher, 1, 1, "X")
    expect(evals(watcher)).to_have_count(6)
    switch.click()
    expect(evals(watcher)).to_have_count(0)


def test_quick_play_seats_two_people_in_one_game(new_page: Any) -> None:
    rules = {"rows": 4, "cols": 4, "k": 3}  # rules nobody else in this module waits with
    pages = []
    for name in ("Ada", "Bob"):
        page = new_page(name=name)
        page.goto("/")
        custom_game(page)
        page.get_by_role("radio", name=re.compile("^Custom")).check()
        page.get_by_role("spinbutton", name="Rows").fill(str(rules["rows"]))
        page.get_by_role("spinbutton", name="Columns").fill(str(rules["cols"]))
        page.get_by_role("spinbutton", name="In a row").fill(str(rules["k"]))
        page.get_by_role("button", name="Quick play").click()
        expect(page).to_have_url(re.compile(r"/r/[^/]+$"))
        pages.append(page)
    ada, bob = pages
    assert ada.url == bob.url
    expect(role_badge(ada)).to_have_text(re.compile("^You play [XO]$"))
    expect(role_badge(bob)).to_have_text(re.compile("^You play [XO]$"))
    assert role_badge(ada).inner_text() != role_badge(bob).inner_text()
    for page in pages:
        expect(player(page, "X")).to_have_attribute("data-state", "online")
        expect(player(page, "O")).to_have_attribute("data-state", "online")
    first = ada if role_badge(ada).inner_text() == "You play X" else bob
    expect(status_line(first)).to_have_text("Your move")
