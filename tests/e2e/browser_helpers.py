"""Locators for the browser client, by what a user (or a screen reader) sees.

Rows, columns and layers are 1-based here, as in the cells' labels
("row 2, column 3, empty"); the wire protocol is 0-based.
"""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect


def button(page: Any, name: str) -> Any:
    return page.get_by_role("button", name=name, exact=True)


def cell(page: Any, row: int, col: int, layer: int | None = None) -> Any:
    prefix = f"layer {layer}, " if layer is not None else ""
    return page.get_by_role("gridcell", name=re.compile(rf"^{prefix}row {row}, column {col},"))


def expect_cell(page: Any, row: int, col: int, mark: str, layer: int | None = None) -> None:
    """The cell shows `mark` ("X", "O" or "empty")."""
    expect(cell(page, row, col, layer)).to_have_attribute(
        "aria-label", re.compile(rf", {mark}(,|$)")
    )


def player(page: Any, mark: str) -> Any:
    return page.locator(f'.player[data-mark="{mark}"]')


PLAYS = re.compile(r"^You play [XOAB]$")


def role_badge(page: Any) -> Any:
    return page.locator(".role-badge")


def status_line(page: Any) -> Any:
    return page.locator(".status-line")


def banner(page: Any) -> Any:
    return page.locator(".banner")


def move_error(page: Any) -> Any:
    return page.locator(".move-error")


def moves(page: Any) -> Any:
    return page.locator(".move-list .move")


def watchers(page: Any) -> Any:
    return page.locator(".watchers .count")


def connection(page: Any) -> Any:
    return page.locator(".conn")


def clock(page: Any, mark: str) -> Any:
    """The big clock of `mark`, beside the board."""
    return page.locator(f'.clock-rail .clock[data-mark="{mark}"]')


def prompt(page: Any, name: str) -> Any:
    """A line of the strip above the board: "draw", "takeback", "claim", "first-move"."""
    return page.locator(f'.offers [data-prompt="{name}"]')


def chat_lines(page: Any) -> Any:
    return page.locator(".chat-lines .chat-line")


def say(page: Any, text: str) -> None:
    box = page.get_by_role("textbox", name="Chat message", exact=True)
    box.fill(text)
    box.press("Enter")


def evals(page: Any) -> Any:
    """The analysis values shown on the board's cells."""
    return page.locator(".board .cell .eval")


def custom_game(page: Any) -> None:
    """Open the lobby's "Custom game" disclosure: the full form to create a game."""
    page.get_by_text("Custom game", exact=True).click()
    expect(page.get_by_role("button", name="Create game")).to_be_visible()


def join_button(page: Any) -> Any:
    """The invite card's one button: "Join as O" (or whichever seat is free)."""
    return page.get_by_role("button", name=re.compile(r"^Join as [XOAB]$"))


def name_field(page: Any) -> Any:
    """The invite page's question: the name to show the others."""
    return page.get_by_role("textbox", name="Your name", exact=True)


def accept_invite(page: Any, room: str) -> Any:
    """Open the room's play link as an invited person and answer the name question with
    what it is prefilled with: the page's stored name, else a guest name."""
    page.goto(f"/r/{room}")
    stored = page.evaluate("() => JSON.parse(localStorage.getItem('ttt.name'))")
    expect(name_field(page)).to_have_value(stored or re.compile(r"^Guest [0-9]{4}$"))
    join_button(page).click()
    return page


def seat(page: Any, room: str, mark: str | None = None) -> Any:
    """Take a seat through the invite (``accept_invite``) and wait until the server seated
    this page (as `mark`, when given)."""
    accept_invite(page, room)
    expect(role_badge(page)).to_have_text(f"You play {mark}" if mark else PLAYS)
    return page


X_WINS = [("X", (1, 1)), ("O", (2, 1)), ("X", (1, 2)), ("O", (2, 2)), ("X", (1, 3))]
"""A quick 3×3 game X wins on the middle row (cells as the page labels them: from 1)."""


def play_tournament_game(x: Any, o: Any, room: str) -> None:
    """Both players' pages, moved to ``room`` by themselves, play ``X_WINS`` to X's win."""
    for page, mark in ((x, "X"), (o, "O")):
        expect(page).to_have_url(re.compile(rf"/r/{room}$"))
        expect(role_badge(page)).to_have_text(f"You play {mark}")
    for mark, (row, col) in X_WINS:
        page, other = (x, o) if mark == "X" else (o, x)
        cell(page, row, col).click()
        expect_cell(other, row, col, mark)
    expect(banner(x)).to_contain_text("You won!")
