"""Whole games over real WebSockets: two players, two spectators, every variant.

Spectators see exactly what players see, in order; a spectator who joins late gets the
whole history in its snapshot; the last move carries the outcome with the winning line.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.support.live_server import LiveServer
from tests.support.ws_client import Client

Cell = tuple[int | None, int] | tuple[int, int, int]


async def table(
    server: LiveServer, connect: Callable[..., Any], rules: dict[str, Any]
) -> tuple[str, list[Client], list[Client]]:
    room_id = await server.create_room(rules)
    players = [await connect(server, room_id) for _ in range(rules.get("players", 2))]
    for i, player in enumerate(players):
        welcome = await player.join(name=f"P{i}")
        assert welcome["type"] == "welcome" and welcome["mark"] == "XOAB"[i]
        assert welcome["token"] and welcome["role"] == "player"
    spectators = [await connect(server, room_id) for _ in range(2)]
    for spectator in spectators:
        welcome = await spectator.join("spectator")
        assert welcome["role"] == "spectator" and welcome["token"] is None
    for client in players + spectators:
        await client.seen(spectators[-1].version)
    return room_id, players, spectators


async def play_out(players: list[Client], cells: list[Cell]) -> list[dict[str, Any]]:
    """Players move in turn; every move is acknowledged and broadcast; returns the moved events."""
    moved = []
    for ply, cell in enumerate(cells):
        mover = players[ply % len(players)]
        layer = cell[2] if len(cell) == 3 else None
        ok = await mover.move(cell[0], cell[1], layer=layer, move_id=f"ply{ply}")
        assert ok["type"] == "move_ok", ok
        event = await mover.until("moved", version=ok["version"])
        for other in players:
            if other is not mover:
                await other.until("moved", version=ok["version"])
        moved.append(event)
    return moved


async def check_everyone_saw_the_same(players: list[Client], spectators: list[Client]) -> None:
    reference = spectators[0].events
    last = reference[-1]["version"]
    for client in players + spectators:
        if client.events[-1]["version"] < last:
            await client.until(version=last)
        moves = [e for e in client.events if e["type"] == "moved"]
        assert moves == [e for e in reference if e["type"] == "moved"]
        versions = [e["version"] for e in client.events]
        assert versions == sorted(versions) and len(set(versions)) == len(versions)
        if client.welcome is not None:  # from its welcome on, no gap at all
            start = client.welcome["version"]
            assert versions == list(range(start + 1, start + 1 + len(versions)))


@pytest.mark.parametrize(
    ("rules", "cells", "outcome"),
    [
        (
            {},
            [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)],
            {"reason": "line", "winner": "X", "line": [(0, 0), (0, 1), (0, 2)]},
        ),
        (
            {},
            [(0, 0), (0, 1), (0, 2), (1, 1), (1, 0), (1, 2), (2, 1), (2, 0), (2, 2)],
            {"reason": "board_full", "winner": None, "line": []},
        ),
        (
            {"rows": 6, "cols": 7, "k": 4, "gravity": True},
            [(None, 3), (None, 4), (None, 3), (None, 4), (None, 3), (None, 4), (None, 3)],
            {"reason": "line", "winner": "X", "line": [(2, 3), (3, 3), (4, 3), (5, 3)]},
        ),
        (
            {"rows": 15, "cols": 15, "k": 5},
            [(7, 3), (0, 0), (7, 4), (0, 1), (7, 5), (0, 2), (7, 6), (14, 14), (7, 7)],
            {"reason": "line", "winner": "X", "line": [(7, c) for c in range(3, 8)]},
        ),
        (
            {"rows": 3, "cols": 3, "layers": 3},
            [(0, 0, 0), (1, 0, 0), (1, 1, 1), (2, 0, 0), (2, 2, 2)],
            {"reason": "line", "winner": "X", "line": [(0, 0), (1, 1), (2, 2)]},
        ),
    ],
    ids=["3x3-win", "3x3-draw", "gravity-7x6", "15x15-k5", "3d-3x3x3"],
)
async def test_full_game_with_two_players_and_two_spectators(
    server: LiveServer,
    connect: Callable[..., Any],
    rules: dict[str, Any],
    cells: list[Cell],
    outcome: dict[str, Any],
) -> None:
    room_id, players, spectators = await table(server, connect, rules)
    moved = await play_out(players, cells)
    final = moved[-1]
    assert final["status"] == "finished" and final["turn"] is None
    got = final["outcome"]
    assert (got["reason"], got["winner"]) == (outcome["reason"], outcome["winner"])
    assert sorted((c["row"], c["col"]) for c in got["line"]) == sorted(outcome["line"])
    for spectator in spectators:
        await spectator.until("moved", version=final["version"])
    await check_everyone_saw_the_same(players, spectators)
    snapshot = await server.snapshot(room_id)
    assert snapshot["outcome"] == got and snapshot["ply"] == len(cells)
    # a spectator who comes after the end gets the whole history at once
    late = await connect(server, room_id)
    welcome = await late.join("spectator")
    state = welcome["state"]
    assert [(m["row"], m["col"]) for m in state["moves"]] == [(e["row"], e["col"]) for e in moved]
    assert state["outcome"] == got and state["spectators"] == 3
    assert all(p["connected"] for p in state["players"])
    assert "token" not in str(state)


async def test_late_spectator_mid_game_gets_history_then_live_moves(
    server: LiveServer, connect: Callable[..., Any]
) -> None:
    room_id, players, _ = await table(server, connect, {"rows": 4, "cols": 4})
    await play_out(players, [(0, 0), (1, 1), (2, 2)])
    late = await connect(server, room_id)
    welcome = await late.join("spectator")
    assert [(m["mark"], m["row"], m["col"]) for m in welcome["state"]["moves"]] == [
        ("X", 0, 0),
        ("O", 1, 1),
        ("X", 2, 2),
    ]
    assert welcome["state"]["turn"] == "O" and welcome["state"]["board"] == "X.../.O../..X./...."
    ok = await players[1].move(3, 3)
    event = await late.until("moved", version=ok["version"])
    assert (event["mark"], event["row"], event["col"]) == ("O", 3, 3)
    assert [e["version"] for e in late.events] == list(
        range(welcome["version"] + 1, ok["version"] + 1)
    )


async def test_three_players_take_turns(server: LiveServer, connect: Callable[..., Any]) -> None:
    _, players, spectators = await table(
        server, connect, {"rows": 4, "cols": 4, "k": 3, "players": 3}
    )
    moved = await play_out(players, [(0, 0), (1, 0), (2, 0), (0, 1), (1, 1), (2, 1), (0, 2)])
    assert [e["mark"] for e in moved] == ["X", "O", "A"] * 2 + ["X"]
    assert moved[-1]["outcome"]["winner"] == "X"
    await check_everyone_saw_the_same(players, spectators)
