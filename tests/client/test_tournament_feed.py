"""client.tournament against a real server on a real port: ``enter`` enters a tournament
once (an entrant just follows), and the ``TournamentFeed`` opens its socket again after a
drop and answers the newest view."""

from __future__ import annotations

import asyncio
import socket

import pytest

from client import Refused, TournamentFeed, TournamentLink, enter, post_json
from tests.support.live_server import LiveServer


def identity(server: LiveServer, name: str) -> dict[str, str]:
    made = post_json(server.url, "/api/players", {"name": name})
    return {"id": made["player_id"], "secret": made["secret"]}


async def test_enter_then_follow_through_a_drop(server: LiveServer) -> None:
    ada = await asyncio.to_thread(identity, server, "Ada")
    made = await asyncio.to_thread(
        post_json, server.url, "/api/tournaments", {"player": ada, "max_players": 4}
    )
    link = TournamentLink.parse(f"{server.url}/t/{made['tournament_id']}")
    assert link is not None
    bo = await asyncio.to_thread(identity, server, "Bo")
    view, entered = await asyncio.to_thread(enter, link, bo)
    assert entered and [e["name"] for e in view["entrants"]] == ["Ada", "Bo"]
    view, entered = await asyncio.to_thread(enter, link, bo)
    assert not entered, "an entrant just follows"
    notes: list[str] = []
    feed = TournamentFeed(link, ada["id"], notify=notes.append)
    try:
        first = await asyncio.to_thread(feed.next_view)
        assert first["tournament_id"] == link.tournament_id and first["your_game"] is None
        assert feed._ws is not None
        feed._ws.socket.shutdown(socket.SHUT_RDWR)  # the network drops
        body = {"player": ada, "level": "easy"}
        await asyncio.to_thread(post_json, server.url, f"{link.api_path}/bots", body)
        again = await asyncio.to_thread(feed.next_view)
        while len(again["entrants"]) < 3:  # the view from before the bot may come first
            again = await asyncio.to_thread(feed.next_view)
    finally:
        feed.close()
    assert feed.reconnects == 1 and notes[-1] == "Reconnected."
    assert "Lost the tournament's live updates; reconnecting..." in notes
    assert again["version"] >= first["version"]


async def test_an_unknown_tournament_is_refused(server: LiveServer) -> None:
    link = TournamentLink(server.url, "nosuchtournament")
    feed = TournamentFeed(link, "nobody", attempts=2)
    try:
        with pytest.raises(Refused) as refused:
            await asyncio.to_thread(feed.next_view)
    finally:
        feed.close()
    assert refused.value.code == "not_found"
