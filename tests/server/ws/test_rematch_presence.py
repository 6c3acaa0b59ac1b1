"""Rematch, presence, abandonment claims and leave, over real WebSockets with a spectator."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

from tests.support.live_server import LiveServer
from tests.support.ws_client import Client, table


async def win_top_row(x: Client, o: Client) -> None:
    """X takes the top row while O plays the middle row."""
    for mover, waiter, (row, col) in [
        (x, o, (0, 0)),
        (o, x, (1, 0)),
        (x, o, (0, 1)),
        (o, x, (1, 1)),
        (x, o, (0, 2)),
    ]:
        await mover.seen(waiter.version)
        assert (await mover.move(row, col))["type"] == "move_ok"


async def test_rematch_swaps_colours_keeps_the_series_and_the_spectator(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id, ada, grace, watcher = await table(server, connect)
    refused = await ada.act("rematch")
    assert refused["code"] == "not_finished"
    await win_top_row(ada, grace)  # Ada (X) wins game 1
    await ada.act("rematch")
    await grace.until("rematch_offered", by="X")
    assert (await grace.act("rematch"))["type"] == "ack"
    for client in (ada, grace, watcher):
        event = await client.until("new_game")
        assert event["marks"] == {"X": "O", "O": "X"} and event["game_number"] == 2
        assert [(p["mark"], p["name"], p["wins"]) for p in event["players"]] == [
            ("X", "Grace", 0),
            ("O", "Ada", 1),
        ]
    # Grace now moves first as X; the old move numbering is stale
    stale = await ada.move(2, 2)
    assert stale["code"] in {"not_your_turn", "stale_version"}
    await win_top_row(grace, ada)  # Grace (X) wins game 2
    snapshot = await server.snapshot(room_id)
    assert {p["name"]: (p["wins"], p["draws"]) for p in snapshot["players"]} == {
        "Ada": (1, 0),
        "Grace": (1, 0),
    }
    assert snapshot["spectators"] == 1 and snapshot["game_number"] == 2
    first = snapshot["games"][0]
    assert first["players"] == [{"mark": "X", "name": "Ada"}, {"mark": "O", "name": "Grace"}]
    assert first["outcome"]["winner"] == "X" and len(first["moves"]) == 5
    assert all(isinstance(move["at"], float) for move in first["moves"])
    # the spectator saw both games, event by event
    assert [e["type"] for e in watcher.events].count("moved") == 10


async def test_abandonment_claim_after_the_grace_period(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    live = make_server(abandon_grace=0.4, leave_grace=0.1)
    room_id, x, o, watcher = await table(live, connect)
    await x.move(1, 1)
    early = await x.act("claim", result="win")
    assert early["code"] == "not_claimable"
    await o.close()
    gone = await watcher.until("presence", mark="O", connected=False)
    assert gone["left"] is False and gone["claimable_at"] > gone["away_since"]
    answer = await x.act("claim", result="win")
    assert answer["type"] == "error" and answer["code"] == "not_claimable"
    assert 0 < answer["retry_after"] <= 0.4
    snapshot = await live.snapshot(room_id)
    assert snapshot["status"] == "playing"  # nothing is forfeited while X waits
    for _ in range(50):
        # The test: wait as long as the server said (retry_after), as a client must.
        await asyncio.sleep(answer["retry_after"])
        answer = await x.act("claim", result="win")
        if answer["type"] == "ack":
            break
        assert answer["code"] == "not_claimable"
    for client in (x, watcher):
        event = await client.until("game_over")
        assert event["outcome"] == {
            "reason": "abandonment",
            "winner": "X",
            "loser": "O",
            "line": [],
        }


async def test_leave_closes_normally_and_shortens_the_grace(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    live = make_server(abandon_grace=60.0, leave_grace=0.2)
    room_id, x, o, watcher = await table(live, connect)
    ack = await o.act("leave")
    assert ack["type"] == "ack" and await o.wait_closed() == 1000
    event = await watcher.until("presence", mark="O", connected=False)
    assert event["left"] is True
    assert event["claimable_at"] - event["away_since"] == pytest.approx(0.2)
    answer = await x.act("claim", result="draw")
    while answer["type"] == "error":
        assert answer["code"] == "not_claimable" and answer["retry_after"] <= 0.2
        await asyncio.sleep(answer["retry_after"])  # the test: as long as the server said
        answer = await x.act("claim", result="draw")
    end = await watcher.until("game_over")
    assert end["outcome"]["reason"] == "abandonment" and end["outcome"]["winner"] is None
    snapshot = await live.snapshot(room_id)
    assert [p["draws"] for p in snapshot["players"]] == [1, 1]


async def test_coming_back_in_time_keeps_the_game_going(
    make_server: Callable[..., LiveServer], connect: Callable[..., Any]
) -> None:
    live = make_server(abandon_grace=30.0)
    room_id, x, o, watcher = await table(live, connect)
    token = o.welcome["token"]  # type: ignore[index]
    await o.close()
    await watcher.until("presence", mark="O", connected=False)
    back = await connect(live, room_id)
    assert (await back.join(token=token))["mark"] == "O"
    event = await watcher.until("presence", mark="O", connected=True)
    assert event["away_since"] is None and event["claimable_at"] is None
    assert (await x.act("claim", result="win"))["code"] == "not_claimable"
