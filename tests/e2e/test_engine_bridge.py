"""A person in Chromium plays an engine written in awk, through ``tictactoe bot`` (the engine
bridge, docs/engine-protocol.md), and wins: in a room by its link, and by challenging the
engine's bot account from the lobby's "Play a bot". The bridge connects through
tests/support/spec_relay.py, which checks its every frame against docs/asyncapi.yaml."""

from __future__ import annotations

import contextlib
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect

from tests.e2e.browser_helpers import banner, cell, expect_cell, player, seat, status_line
from tests.support.live_server import LiveServer
from tests.support.loop_thread import LoopThread
from tests.support.spec_relay import SpecRelay
from tests.support.ws_client import WAIT

pytestmark = pytest.mark.e2e

ROOT = Path(__file__).resolve().parents[2]
AWK = ROOT / "tests" / "cli" / "bridge" / "engines" / "first_free.awk"
ROOM_SOCKET = {("room", "send"), ("room", "receive")}


@pytest.fixture
def relay(live_server: LiveServer) -> Iterator[SpecRelay]:
    """A relay the bridge connects through: every frame of its sockets is checked against
    docs/asyncapi.yaml (the page's own are the server's tests' business)."""
    loop = LoopThread().start()
    made = loop.run(SpecRelay(live_server.port).start())
    yield made
    loop.run(made.stop())
    loop.stop()


@contextlib.contextmanager
def awk_bridge(*options: str) -> Iterator[subprocess.Popen[str]]:
    """``tictactoe bot`` with ``options`` and the awk engine, its output kept; killed at the
    end if it has not exited by then."""
    bot = subprocess.Popen(
        [sys.executable, "-m", "cli", "bot", *options, "--engine", f"awk -f {AWK}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT, text=True,
    )  # fmt: skip
    try:
        yield bot
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.communicate()


def beat_first_free(ada: Any) -> None:
    """Ada, X and to move, wins: the engine takes the centre, then the first free cell row by
    row (1-based here)."""
    expect(status_line(ada)).to_have_text("Your move")
    for mine, its in [((1, 1), (2, 2)), ((3, 3), (1, 2)), ((3, 2), (1, 3))]:
        cell(ada, *mine).click()
        expect_cell(ada, *its, "O")
    cell(ada, 3, 1).click()
    expect(banner(ada)).to_contain_text("You won!")


def test_a_person_in_chromium_beats_the_awk_engine(
    new_page: Any, create_room: Any, relay: SpecRelay
) -> None:
    room = create_room()
    ada = seat(new_page(name="Ada"), room, "X")
    with awk_bridge("--connect", f"{relay.url}/r/{room}") as bot:
        expect(player(ada, "O")).to_contain_text("first-free.awk")
        beat_first_free(ada)
        _, err = bot.communicate(timeout=WAIT)
    assert bot.returncode == 0, err
    assert "the game is over: X wins by line; the engine lost" in err
    assert relay.saw() == ROOM_SOCKET and not relay.invalid, (relay.counts, relay.invalid)


def test_a_person_in_chromium_challenges_the_awk_engines_bot_account_and_wins(
    new_page: Any, live_server: LiveServer, relay: SpecRelay, tmp_path: Path
) -> None:
    made = httpx.post(f"{live_server.url}/api/bots", json={"name": "Awk Bot"})
    assert made.status_code == 201, made.text
    account = made.json()
    token_file = tmp_path / "token"
    token_file.write_text(account["token"] + "\n")
    with awk_bridge("--connect", relay.url, "--token-file", str(token_file), "--games", "1") as bot:
        deadline = time.monotonic() + WAIT * 2
        while not any(  # online once the bridge said hello on the bot socket
            listed["player_id"] == account["player_id"]
            for listed in httpx.get(f"{live_server.url}/api/bots").json()["bots"]
        ):
            assert time.monotonic() < deadline and bot.poll() is None, "the bridge never came"
            time.sleep(0.05)  # a poll for the bridge's start, not a measurement
        ada = new_page(name="Ada")
        ada.goto("/")
        listed = ada.locator(f'.bot-item[data-bot="{account["player_id"]}"]')
        listed.get_by_role("button", name="Play Awk Bot, a bot").click()
        ada.wait_for_url("**/r/*")
        expect(player(ada, "O")).to_contain_text("Awk Bot")  # it accepted and took its seat
        expect(player(ada, "O").locator(".bot-mark")).to_have_text("BOT")
        beat_first_free(ada)
        _, err = bot.communicate(timeout=WAIT)
    assert bot.returncode == 0, err
    assert "accepted Ada's challenge: 3×3 k=3" in err
    assert "the game is over: X wins by line; the engine lost" in err
    assert account["token"] not in err
    sockets = ROOM_SOCKET | {("bot", "send"), ("bot", "receive")}
    assert relay.saw() == sockets and not relay.invalid, (relay.counts, relay.invalid)
