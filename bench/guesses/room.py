"""The benchmark's room and how its clients reach it: the rules (19×19, a line of 19: games
last, a full board is a rematch), its sockets' addresses and the wait for any answer."""

from __future__ import annotations

from ..load.http import HttpPool

__all__ = ["RULES", "WAIT", "create_room", "socket_url"]

RULES = {"rows": 19, "cols": 19, "k": 19}
WAIT = 120.0
"""Seconds a join, a handshake or the next message may take on a busy machine."""


def socket_url(url: str, room_id: str, *, watch: bool) -> str:
    """The room's socket on the server at ``url``; the spectators' path when ``watch``."""
    return url.replace("http", "ws", 1) + f"/ws/{room_id}" + ("/watch" if watch else "")


async def create_room(url: str) -> str:
    pool = HttpPool(url)
    try:
        return await pool.create_room(RULES)
    finally:
        await pool.close()
