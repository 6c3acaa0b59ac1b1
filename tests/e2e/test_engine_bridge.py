"""A person in Chromium plays an engine written in awk, through ``tictactoe bot`` (the engine
bridge, docs/engine-protocol.md), and wins."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import banner, cell, expect_cell, player, seat, status_line
from tests.support.live_server import LiveServer
from tests.support.ws_client import WAIT

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
AWK = ROOT / "tests" / "cli" / "bridge" / "engines" / "first_free.awk"


def test_a_person_in_chromium_beats_the_awk_engine(
    new_page: Any, create_room: Any, live_server: LiveServer
) -> None:
    room = create_room()
    ada = seat(new_page(name="Ada"), room, "X")
    bot = subprocess.Popen(
        [sys.executable, "-m", "cli", "bot", "--connect", f"{live_server.url}/r/{room}",
         "--engine", f"awk -f {AWK}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, text=True,
    )  # fmt: skip
    try:
        expect(player(ada, "O")).to_contain_text("first-free.awk")
        expect(status_line(ada)).to_have_text("Your move")
        # the engine takes the centre, then the first free cell row by row (1-based here)
        for mine, its in [((1, 1), (2, 2)), ((3, 3), (1, 2)), ((3, 2), (1, 3))]:
            cell(ada, *mine).click()
            expect_cell(ada, *its, "O")
        cell(ada, 3, 1).click()
        expect(banner(ada)).to_contain_text("You won!")
        _, err = bot.communicate(timeout=WAIT)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.communicate()
    assert bot.returncode == 0, err
    assert "the game is over: X wins by line; the engine lost" in err
