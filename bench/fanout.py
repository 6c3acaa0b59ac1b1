"""A crowd's fan-out: the worker's CPU time per connection to send one event to everyone.

    .venv/bin/python -m bench.fanout [--connections 1000] [--events 200] [--rounds 5]

A real uvicorn with the server's options serves a bare WebSocket endpoint in this process; a
child process opens ``--connections`` WebSockets and reads everything. Each event (a usual
``moved``) is handed to every connection's ``Connection`` (server.ws.connection) as the hub hands
it, and this process's CPU time (the readers' excluded) is divided by the frames sent. Two ways,
taking turns, best of ``--rounds`` each: *asgi*, every frame through uvicorn's ASGI ``send``;
*direct*, the frame built once per event and written to each transport by the connection's sender
(server.fastpath.sender), as the server does; and *write*, the floor: the frame written to
each transport in a bare loop, which is the system call and nothing around it. Events are
paced (one per ``PACE`` seconds) so that no socket pauses: a paused socket takes the ASGI path
both ways.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import platform
import socket
import subprocess
import sys
from time import process_time
from typing import Any

import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

from server.fastpath import FastSender, RawSend, frame_of
from server.guards.capacity import fit_file_limit
from server.ws.connection import Connection

__all__ = ["main", "measure"]

PACE = 0.02
WAYS = ("asgi", "direct", "write")
EVENT = (
    '{"type":"moved","version":6,"mark":"X","row":1,"col":1,"layer":0,"ply":1,"turn":"O",'
    '"status":"playing","outcome":null,"at":1767000003.5,"clock":null,"offers":{"draw":null,'
    '"takeback":null,"rematch":[]},"due":null}'
)

_READERS = r"""
import asyncio, sys
async def reader(port, ready):
    r, w = await asyncio.open_connection("127.0.0.1", port)
    w.write(b"GET /ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n")
    await r.readuntil(b"\r\n\r\n")
    ready()
    while await r.read(65536):
        pass
async def main(port, n):
    done = [0]
    def ready():
        done[0] += 1
        if done[0] == n:
            print("ready", flush=True)
    await asyncio.gather(*(reader(port, ready) for _ in range(n)))
asyncio.run(main(int(sys.argv[1]), int(sys.argv[2])))
"""


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def _serve(connections: int, events: int, rounds: int) -> dict[str, Any]:
    held: list[Connection] = []
    ended = asyncio.Event()

    async def endpoint(websocket: WebSocket) -> None:
        await websocket.accept()
        held.append(Connection(websocket, queue_size=256))
        with contextlib.suppress(WebSocketDisconnect):
            await websocket.receive()
        await ended.wait()

    app = RawSend(Starlette(routes=[WebSocketRoute("/ws", endpoint)]))
    port = _free_port()
    config = uvicorn.Config(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws="websockets-sansio",
        ws_per_message_deflate=False,
        ws_ping_interval=None,  # the readers never answer a ping: a long run would time out
        lifespan="off",
        backlog=4096,
    )
    server = uvicorn.Server(config)
    serving = asyncio.create_task(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    readers = await asyncio.create_subprocess_exec(
        sys.executable,
        "-c",
        _READERS,
        str(port),
        str(connections),
        stdout=subprocess.PIPE,
    )
    try:
        assert readers.stdout is not None
        await asyncio.wait_for(readers.stdout.readline(), 60)
        while len(held) < connections:
            await asyncio.sleep(0.01)
        senders = [connection._sender for connection in held]
        assert all(isinstance(sender, FastSender) for sender in senders), "RawSend is in front"
        protocols = [sender.protocol for sender in senders if isinstance(sender, FastSender)]
        transports = [protocol.transport for protocol in protocols if protocol is not None]
        best = {way: float("inf") for way in WAYS}
        for _ in range(rounds):
            for way in WAYS:
                for sender, protocol in zip(senders, protocols, strict=True):
                    assert isinstance(sender, FastSender)
                    sender.protocol = protocol if way == "direct" else None
                spent = 0.0
                for number in range(events):
                    text = EVENT.replace('"version":6', f'"version":{number}')
                    started = process_time()
                    if way == "write":  # the floor: the frame's system call, nothing around it
                        frame = frame_of(text)
                        for transport in transports:
                            transport.write(frame)
                    else:
                        for connection in held:
                            connection.send(text)
                    spent += process_time() - started
                    await asyncio.sleep(PACE)
                best[way] = min(best[way], spent / (events * connections) * 1e6)
        if any(connection.ended for connection in held):
            raise RuntimeError("a reader fell behind: raise PACE")
        return {
            "connections": connections,
            "events": events,
            "frame_bytes": len(EVENT),
            "us_cpu_per_frame": {way: round(value, 2) for way, value in best.items()},
            "asgi_over_direct": round(best["asgi"] / best["direct"], 2),
            "direct_over_write": round(best["direct"] / best["write"], 2),
        }
    finally:
        readers.kill()
        await readers.wait()
        ended.set()
        server.should_exit = True
        await serving


def measure(connections: int = 1000, events: int = 200, rounds: int = 5) -> dict[str, Any]:
    """The figures above, as a dict (the CLI prints it as JSON)."""
    if fit_file_limit(connections) is not None:  # the readers' process inherits the limit
        raise RuntimeError(f"{connections} connections need more open files than ulimit -n")
    try:
        import uvloop
    except ImportError:  # pragma: no cover - uvloop is a dependency of the server
        return asyncio.run(_serve(connections, events, rounds))
    return uvloop.run(_serve(connections, events, rounds))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.fanout", description=__doc__)
    parser.add_argument("--connections", type=int, default=1000)
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args(argv)
    result = measure(args.connections, args.events, args.rounds)
    result["python"] = platform.python_version()
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
