"""Whole games played over a real server's WebSocket, for tests that need a finished one."""

from __future__ import annotations

from tests.support.live_server import LiveServer
from tests.support.ws_client import Client

__all__ = ["TOP_ROW_WIN", "top_row_win"]

TOP_ROW_WIN = [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]
"""X on the top row, O under it: X wins at the fifth move."""


async def top_row_win(live: LiveServer, *, x: str = "Ada", o: str = "Grace") -> str:
    """A new room on ``live`` whose first game ``x`` (X) won on the top row against ``o``."""
    room = await live.create_room()
    players = await Client.open(live, room), await Client.open(live, room)
    try:
        await players[0].join(name=x)
        await players[1].join(name=o)
        for ply, (row, col) in enumerate(TOP_ROW_WIN):
            mover = players[ply % 2]
            await mover.seen(max(p.version for p in players))
            assert (await mover.move(row, col))["type"] == "move_ok"
        await players[0].until("moved", status="finished")
    finally:
        for player in players:
            await player.close()
    return room
