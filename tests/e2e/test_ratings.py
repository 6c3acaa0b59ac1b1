"""Rated games in real Chromium: a rated room created in the lobby, played by two guest
identities to a win; the result banner shows each rating's change (provisional: "?"), and
the player's page and the pool's leaderboard show where each stands: ranked, or listed apart as
provisional with the games still to play, as the banner says why a first game moves so much."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import (
    banner,
    button,
    cell,
    custom_game,
    expect_cell,
    role_badge,
    seat,
)
from tests.e2e.contrast import low_contrast

pytestmark = pytest.mark.e2e


def test_a_rated_game_changes_both_ratings_and_the_pages_show_them(
    new_page: Any, screenshot: Any
) -> None:
    ada = new_page(name="Ada")
    ada.goto("/")
    custom_game(ada)
    ada.get_by_role("checkbox", name=re.compile("^Rated")).check()
    button(ada, "Create game").click()
    expect(role_badge(ada)).to_have_text("You play X")
    room = ada.url.rstrip("/").rsplit("/", 1)[-1]
    expect(ada.locator(".info-card")).to_contain_text("Classic 3×3, untimed")
    bob = seat(new_page(name="Bob"), room, "O")

    for page, (row, col) in [(ada, (1, 1)), (bob, (2, 1)), (ada, (1, 2)), (bob, (2, 2))]:
        cell(page, row, col).click()
        expect_cell(ada if page is bob else bob, row, col, "X" if page is ada else "O")
    cell(ada, 1, 3).click()  # a1, a2, a3: Ada wins

    note = re.compile(
        r"Rating, Classic 3×3, untimed: Ada 1500 → (\d+)\? \(\+\d+\) · Bob 1500 → (\d+)\? \(−\d+\)"
    )
    # a first game moves a rating a lot: the note says why, and for how long still
    why = re.compile(
        r"Provisional ratings \(\?\) move fast for the first games: "
        r"Ada is ranked after about \d+ more games, Bob is ranked after about \d+ more games\."
    )
    for page in (ada, bob):
        expect(banner(page)).to_contain_text(note)
        expect(banner(page)).to_contain_text(why)
    screenshot(ada, "rated-game-over", sizes=("desktop",))
    failures = [f"banner {f}" for scheme in ("light", "dark") for f in low_contrast(ada, scheme)]
    found = note.search(banner(ada).inner_text())
    assert found is not None
    ada_after, bob_after = int(found.group(1)), int(found.group(2))
    assert ada_after > 1500 > bob_after

    # Ada's page: her rating in the pool (provisional after one game) and the game
    ada.goto("/")
    ada.get_by_role("link", name="your ratings").click()
    expect(ada.get_by_role("heading", level=1)).to_have_text("Ada")
    expect(ada.locator(".pool-rating")).to_contain_text(f"{ada_after}?")
    expect(ada.locator(".recent-games li")).to_have_count(1)
    screenshot(ada, "player-page", sizes=("desktop",))
    failures += [f"player {f}" for scheme in ("light", "dark") for f in low_contrast(ada, scheme)]

    # the leaderboard ranks established ratings only: Bob sees where he stands meanwhile
    bob.goto("/leaderboards/classic/untimed")
    expect(bob.get_by_role("heading", level=1)).to_contain_text("Classic 3×3, untimed")
    expect(bob.locator(".board-body")).to_contain_text("No established ratings here yet.")
    expect(bob.locator(".around")).to_contain_text(f"Your rating: {bob_after}?")
    expect(bob.locator(".around")).to_contain_text(re.compile(r"ranked after about \d+ more games"))
    # ... and lists the provisional players apart, each with the games still to play
    provisional = bob.locator(".provisional")
    expect(provisional.get_by_role("heading", name="Provisional")).to_be_visible()
    for name, after in (("Ada", ada_after), ("Bob", bob_after)):
        row = provisional.locator("tr", has_text=name)
        expect(row).to_contain_text(f"{after}?")
        expect(row.locator(".to-go")).to_have_text(re.compile(r"^about \d+ more games$"))
    screenshot(bob, "leaderboard", sizes=("desktop",))
    failures += [f"board {f}" for scheme in ("light", "dark") for f in low_contrast(bob, scheme)]
    assert not failures, "text below 4.5:1:\n" + "\n".join(failures)
