"""The own move is instant: drawn on the click before any server reply, rolled back when
the server refuses it; out-of-turn and blocked clicks are answered by the page with no
frame sent; a premove queued during the opponent's turn is played when the turn comes.

X's room socket runs through the test (socket_line.Line): it counts every frame the page
sends and can hold back the server's answers.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import (
    cell,
    expect_cell,
    move_error,
    moves,
    status_line,
)
from tests.e2e.socket_line import two_players

pytestmark = pytest.mark.e2e


def cursor(page: Any, row: int, col: int) -> str:
    value: str = cell(page, row, col).evaluate("(el) => getComputedStyle(el).cursor")
    return value


def test_the_own_move_is_drawn_before_any_server_reply(new_page: Any, create_room: Any) -> None:
    x, line, o = two_players(new_page, create_room())
    line.hold()  # nothing the server says reaches X's page from here on
    cell(x, 2, 2).click()
    expect_cell(x, 2, 2, "X")
    expect(x.locator('.board .cell[data-key="0:1:1"] .piece.mark-X')).to_be_visible()
    expect(status_line(x)).to_have_text("Oda (O) to move")
    expect(cell(x, 1, 1)).to_have_attribute("aria-disabled", "true")
    assert len(line.sent_of("move")) == 1
    expect_cell(o, 2, 2, "X")  # the server took it...
    line.wait_for(
        x, "the server's answer", lambda: any(m["type"] == "move_ok" for m in line.held())
    )
    expect(moves(x)).to_have_count(0)  # ...and X's page has not heard back: a prediction
    line.release()
    expect(moves(x)).to_have_count(1)
    expect(x.locator(".board")).not_to_have_attribute("aria-busy", "true")
    expect_cell(x, 2, 2, "X")
    assert len(line.sent_of("move")) == 1


def test_clicks_that_cannot_be_played_are_answered_with_no_frame_sent(
    new_page: Any, create_room: Any, screenshot: Any
) -> None:
    x, line, o = two_players(new_page, create_room())
    assert cursor(x, 1, 1) == "pointer"
    cell(x, 2, 2).click()
    expect_cell(o, 2, 2, "X")
    expect(moves(x)).to_have_count(1)
    sent = len(line.sent)

    # O's turn: X's cells are not playable, and say so to the pointer and to assistive tech.
    expect(cell(x, 1, 1)).to_have_attribute("aria-disabled", "true")
    assert cursor(x, 1, 1) == "default"
    assert cursor(o, 1, 1) == "pointer"
    expect(cell(o, 1, 1)).not_to_have_attribute("aria-disabled", "true")
    expect(cell(o, 2, 2)).to_have_attribute("aria-disabled", "true")  # taken

    # A taken cell out of turn: answered at once, in the page.
    cell(x, 2, 2).click(force=True)
    expect(move_error(x)).to_have_attribute("data-code", "occupied")
    expect(move_error(x)).to_contain_text("b2 is taken")
    expect(move_error(x)).to_contain_text("It is Oda's move.")

    # A free cell out of turn: a premove (drawn faint), still nothing sent.
    cell(x, 1, 1).click(force=True)
    expect(cell(x, 1, 1)).to_have_attribute("aria-label", "row 1, column 1, empty, premove")
    expect(move_error(x)).to_be_hidden()
    screenshot(x, "premove")
    cell(x, 1, 1).click(force=True)  # clicked again: cancelled
    expect(cell(x, 1, 1)).to_have_attribute("aria-label", "row 1, column 1, empty")

    # A taken cell on one's own turn: answered in the page too.
    cell(o, 1, 2).click()
    expect_cell(x, 1, 2, "O")
    cell(x, 1, 2).click(force=True)
    expect(move_error(x)).to_contain_text("b1 is taken")
    expect(move_error(x)).to_contain_text("Choose an empty cell.")
    expect(move_error(x)).to_have_attribute("data-tone", "hint")

    # Frames leave in order: after a real move, the only move sent since is that one.
    cell(x, 3, 3).click()
    expect_cell(o, 3, 3, "X")
    since = [m for m in line.sent[sent:] if m["type"] == "move"]
    assert [(m["row"], m["col"]) for m in since] == [(2, 2)]
    expect(move_error(o)).to_be_hidden()


def test_a_premove_is_played_when_the_turn_comes(new_page: Any, create_room: Any) -> None:
    x, line, o = two_players(new_page, create_room())
    cell(x, 2, 2).click()
    expect_cell(o, 2, 2, "X")

    # Queued, then cancelled by a click off the board, as on lichess.
    cell(x, 1, 1).click(force=True)
    expect(cell(x, 1, 1)).to_have_attribute("aria-label", re.compile(", premove$"))
    x.locator(".moves-box").click()
    expect(x.get_by_role("gridcell", name=re.compile("premove"))).to_have_count(0)

    # Queued again on another cell; it goes out on X's turn with the version it follows.
    cell(x, 3, 3).click(force=True)
    expect(cell(x, 3, 3)).to_have_attribute("aria-label", re.compile(", premove$"))
    assert len(line.sent_of("move")) == 1
    cell(o, 1, 3).click()
    expect_cell(o, 3, 3, "X")
    expect(moves(o)).to_have_count(3)
    expect(status_line(o)).to_have_text("Your move")
    first, premoved = line.sent_of("move")
    assert (premoved["row"], premoved["col"]) == (2, 2)
    assert premoved["version"] > first["version"]

    # A premove on the cell the opponent then takes is dropped with a note.
    cell(x, 3, 1).click(force=True)
    expect(cell(x, 3, 1)).to_have_attribute("aria-label", re.compile(", premove$"))
    cell(o, 3, 1).click()
    expect(move_error(x)).to_contain_text("Premove cancelled")
    expect(move_error(x)).to_contain_text("a3 was taken.")
    expect(status_line(x)).to_have_text("Your move")
    assert len(line.sent_of("move")) == 2


def test_a_move_the_server_refuses_is_rolled_back(
    new_page: Any, create_room: Any, screenshot: Any
) -> None:
    x, line, o = two_players(new_page, create_room())
    # The page believes the move is fine; the server does not (the version is rewritten to
    # one the room has not reached, which the server refuses as stale).
    line.rewrite = lambda m: {**m, "version": m["version"] + 100} if m["type"] == "move" else m
    cell(x, 2, 2).click()
    expect(move_error(x)).to_have_attribute("data-code", "stale_version")
    expect(move_error(x)).to_have_text(
        re.compile(r"^b2 was not played\s*The board changed before your move arrived\.")
    )
    expect(move_error(x)).not_to_contain_text("version")  # the server's words are for logs
    expect_cell(x, 2, 2, "empty")
    expect(status_line(x)).to_have_text("Your move")
    expect(moves(o)).to_have_count(0)
    expect_cell(o, 2, 2, "empty")
    screenshot(x, "move-refused")

    line.rewrite = None
    cell(x, 2, 2).click()
    expect_cell(o, 2, 2, "X")
    expect(moves(x)).to_have_count(1)
    expect(move_error(x)).to_be_hidden()
