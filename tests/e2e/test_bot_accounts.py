"""Bot accounts in Chromium (docs/protocol.md, "Bots"): the lobby's "Play a bot" lists an
online bot with its BOT mark; a click challenges it, the bot (a real client over the bot
socket, in a thread) accepts and joins, and the room shows it with the BOT mark; a public
room that seats bots shows the mark on the lobby's list too."""

from __future__ import annotations

import contextlib
import json
import threading
from typing import Any

import httpx
import pytest
from playwright.sync_api import expect
from websockets.sync.client import connect

from tests.e2e.browser_helpers import custom_game, player
from tests.support.live_server import LiveServer
from tests.support.ws_client import WAIT

pytestmark = pytest.mark.e2e


class ThreadBot:
    """A bot account's client in a thread: its socket, accepting the first challenge, then
    seated in that room (and, if asked, in a public room) with its token."""

    def __init__(self, server: LiveServer, name: str) -> None:
        made = httpx.post(f"{server.url}/api/bots", json={"name": name})
        assert made.status_code == 201, made.text
        self.bot: dict[str, Any] = made.json()
        self.port = server.port
        self.sockets = contextlib.ExitStack()  # every socket, closed at the end
        self.control = self._open("/ws/bot")
        self.control.send(json.dumps({"type": "hello", "token": self.bot["token"]}))
        assert json.loads(self.control.recv(WAIT))["type"] == "bot_welcome"
        self.thread = threading.Thread(target=self._accept_one, daemon=True)
        self.thread.start()

    def _accept_one(self) -> None:
        while True:
            message = json.loads(self.control.recv(WAIT))
            if message["type"] == "challenge":
                self.control.send(
                    json.dumps({"type": "accept", "challenge_id": message["challenge_id"]})
                )
            elif message["type"] == "seat":
                self.sit(message["room_id"])
                return

    def _open(self, path: str) -> Any:
        return self.sockets.enter_context(connect(f"ws://127.0.0.1:{self.port}{path}", proxy=None))

    def sit(self, room_id: str) -> None:
        room = self._open(f"/ws/{room_id}")
        room.send(json.dumps({"type": "join", "as": "player", "bot_token": self.bot["token"]}))
        assert json.loads(room.recv(WAIT))["type"] == "welcome"

    def close(self) -> None:
        self.sockets.close()


def test_the_lobby_offers_an_online_bot_and_marks_it_everywhere(
    new_page: Any, live_server: LiveServer, screenshot: Any
) -> None:
    robo = ThreadBot(live_server, "Robo")
    try:
        host = new_page(name="Cy")  # a public room made in the lobby, "Bots welcome" checked
        host.goto("/")
        custom_game(host)
        rated, welcome = host.get_by_label("Rated"), host.get_by_label("Bots welcome")
        rated.check()
        expect(welcome).to_be_hidden()  # rated with bots would seat bots only, not its maker
        rated.uncheck()
        welcome.check()
        host.get_by_role("button", name="Create game").click()
        host.wait_for_url("**/r/*")
        public = host.url.rsplit("/", 1)[1]
        assert httpx.get(f"{live_server.url}/api/rooms/{public}").json()["settings"]["bots"]
        robo.sit(public)
        lobby = new_page(name="Ada")
        lobby.goto("/")
        listed = lobby.locator(f'.bot-item[data-bot="{robo.bot["player_id"]}"]')
        expect(listed).to_contain_text("Robo")
        expect(listed.locator(".bot-mark")).to_have_text("BOT")
        card = lobby.locator(f'.room-item[data-room-id="{public}"]')
        expect(card.locator(".bot-mark")).to_have_text("BOT")  # the public games' list too

        listed.get_by_role("button", name="Play Robo, a bot").click()
        lobby.wait_for_url("**/r/*")
        seat = player(lobby, "O")
        expect(seat).to_contain_text("Robo")  # the bot accepted and joined
        expect(seat.locator(".bot-mark")).to_have_text("BOT")
        expect(player(lobby, "X").locator(".bot-mark")).to_have_count(0)  # Ada is a person
        robo.thread.join(WAIT)
        screenshot(lobby, "bot-account-seat", sizes=("desktop",))
    finally:
        robo.close()
