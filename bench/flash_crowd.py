"""A crowd arriving at once: how long until everyone is in, and what it costs the room.

    .venv/bin/python -m bench.flash_crowd --url http://127.0.0.1:8000 [--spectators 1000]

Against a running server (``tictactoe serve``): a new room, a player seated in it, then
``--spectators`` WebSockets (the real websockets client) opened and joined all at once,
with no gate. Reports the seconds until the last ``welcome``, how many spectators were
dropped instead (a close, such as 4009 when a send queue overflowed), how many
``spectators`` events the player received meanwhile (one per commit that let spectators
in), which everyone already watching receives too.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from typing import Any

from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed

from client.aio import open_joined

from .load.http import HttpPool

__all__ = ["main", "measure"]

WAIT = 120.0


async def _join(url: str, role: str) -> tuple[ClientConnection, dict[str, Any]]:
    return await open_joined(url, {"type": "join", "as": role}, max_queue=None, open_timeout=WAIT)


async def _drain(ws: ClientConnection, until: asyncio.Event) -> list[dict[str, Any]]:
    """Every message ``ws`` receives until ``until`` is set and it has been quiet a while."""
    seen: list[dict[str, Any]] = []
    while True:
        try:
            seen.append(json.loads(await asyncio.wait_for(ws.recv(), 0.5)))
        except TimeoutError:
            if until.is_set():
                return seen
        except ConnectionClosed:
            return seen


async def _run(base_url: str, spectators: int) -> dict[str, Any]:
    http = HttpPool(base_url)
    try:
        room_id = await http.create_room({})
    finally:
        await http.close()
    ws_url = "ws" + base_url.removeprefix("http") + f"/ws/{room_id}"
    player, _ = await _join(ws_url, "player")
    everyone_in = asyncio.Event()
    watching = asyncio.create_task(_drain(player, everyone_in))
    started = time.perf_counter()
    results = await asyncio.gather(
        *(_join(f"{ws_url}/watch", "spectator") for _ in range(spectators)),
        return_exceptions=True,
    )
    elapsed = time.perf_counter() - started
    everyone_in.set()
    joined = [
        ws
        for ws, welcome in (r for r in results if isinstance(r, tuple))
        if welcome["type"] == "welcome"
    ]
    await asyncio.sleep(1.0)  # what the last commits send still arrives
    dropped = sum(1 for ws in joined if ws.close_code is not None)
    seen = await watching
    events = [m for m in seen if m.get("type") == "spectators"]
    await asyncio.gather(*(ws.close() for ws in joined), return_exceptions=True)
    await player.close()
    return {
        "spectators": spectators,
        "welcomed": len(joined),
        "failed_to_join": spectators - len(joined),
        "dropped_after_joining": dropped,
        "seconds_until_all_in": round(elapsed, 2),
        "spectators_events_to_the_player": len(events),
        "last_count": events[-1]["count"] if events else None,
        "frames_to_the_player": len(seen),
    }


def measure(base_url: str, spectators: int = 1000) -> dict[str, Any]:
    return asyncio.run(_run(base_url, spectators))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.flash_crowd", description=__doc__)
    parser.add_argument("--url", required=True, help="a running server, http://HOST:PORT")
    parser.add_argument("--spectators", type=int, default=1000)
    args = parser.parse_args(argv)
    print(json.dumps(measure(args.url.rstrip("/"), args.spectators), indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
