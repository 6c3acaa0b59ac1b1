"""The Redis bus's intake: this process's CPU time per message received, both ways, in one run.

    .venv/bin/python -m bench.bus_intake [--url redis://127.0.0.1:6379/9] [--rounds 5]
                                         [--messages 40000]

A ``RedisBus`` subscribes ``ROOMS`` channels, each handed to a listener (as the hub takes them);
another process publishes ``MESSAGES`` event-sized messages across them, pipelined, as fast as
Redis takes them. The figure is this process's CPU time from the first message published to the
last one received, per message: the bus reading, parsing and dispatching. Both ways in each
round, one after the other (their order alternating): the fast path (``wire``: hiredis fed by a
protocol, dispatching in ``data_received``) and ``--no-fastpath``'s plain redis-py reads. The
best round of each, and the rate (messages per second of wall time, which a busy machine
lowers).

Runs on the server's loop (uvloop when installed; ``--loop``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import platform
import secrets
import sys
import time
from time import process_time
from typing import Any

import redis

from rooms.backends.redis.bus import RedisBus
from rooms.backends.redis.connect import RedisOptions
from rooms.backends.redis.keys import KeyLayout

__all__ = ["main", "measure"]

ROOMS = 20
MESSAGES = 40_000
BATCH = 500
MESSAGE = json.dumps(
    {
        "type": "moved",
        "version": 12,
        "mark": "X",
        "row": 1,
        "col": 2,
        "status": "playing",
        "turn": "O",
        "by": "x" * 22,
        "move_id": "m" * 16,
        "at": 1767225600.123,
        "board": "X.O/.X./..O",
    },
    separators=(",", ":"),
)
"""About the size of a move's event text as the store publishes it."""
WAYS = {"wire": True, "plain": False}
"""The fast path's intake and its plain twin, by the ``auto_pipeline`` option."""


def _publish(url: str, channels: list[str], count: int, start: Any) -> None:
    """In another process: wait for ``start``, then publish ``count`` messages round-robin."""
    client = redis.Redis.from_url(url)
    try:
        start.wait()
        sent = 0
        while sent < count:
            pipe = client.pipeline(transaction=False)
            for i in range(sent, min(sent + BATCH, count)):
                pipe.publish(channels[i % len(channels)], MESSAGE)
            pipe.execute()
            sent += BATCH
    finally:
        client.close()


async def _once(url: str, fastpath: bool, messages: int) -> tuple[float, float]:
    """(µs of this process's CPU per message, messages per second) for one way."""
    prefix = f"bench-intake-{secrets.token_hex(4)}"
    bus = RedisBus(url, prefix=prefix, options=RedisOptions(timeout=10.0, auto_pipeline=fastpath))
    await bus.open()
    context = multiprocessing.get_context("spawn")
    start = context.Event()
    rooms = [f"intake{i:03d}" for i in range(ROOMS)]
    channels = [KeyLayout(prefix).channel(room) for room in rooms]
    publisher = context.Process(target=_publish, args=(url, channels, messages, start))
    try:
        done = asyncio.Event()
        received = 0

        def count(message: str) -> None:
            nonlocal received
            received += 1
            if received == messages:
                done.set()

        for room in rooms:
            (await bus.subscribe(room)).listen(count)
        publisher.start()
        await asyncio.sleep(0.5)  # the child is up and connected
        gc.collect()
        cpu, wall = process_time(), time.perf_counter()
        start.set()
        await asyncio.wait_for(done.wait(), 120)
        cpu, wall = process_time() - cpu, time.perf_counter() - wall
        return cpu / messages * 1e6, messages / wall
    finally:
        if publisher.pid is not None:
            publisher.join(30)
        await bus.close()


def measure(
    url: str, rounds: int = 5, loop: str = "uvloop", messages: int = MESSAGES
) -> dict[str, dict[str, float]]:
    """The best CPU per message (µs) and best rate of each way over ``rounds`` rounds."""
    found: dict[str, list[tuple[float, float]]] = {way: [] for way in WAYS}
    for round_ in range(rounds):
        order = list(WAYS) if round_ % 2 == 0 else list(reversed(WAYS))
        for way in order:
            if loop == "uvloop":
                import uvloop

                found[way].append(uvloop.run(_once(url, WAYS[way], messages)))
            else:
                found[way].append(asyncio.run(_once(url, WAYS[way], messages)))
    return {
        way: {
            "cpu_us_per_message": min(cpu for cpu, _ in results),
            "messages_per_second": max(rate for _, rate in results),
        }
        for way, results in found.items()
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.bus_intake", description=__doc__)
    parser.add_argument("--url", default="redis://127.0.0.1:6379/9")
    parser.add_argument("--rounds", type=int, default=5, help="best of this many rounds")
    parser.add_argument("--messages", type=int, default=MESSAGES, help="messages per round")
    parser.add_argument("--loop", choices=("uvloop", "asyncio"), default=None)
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    loop = args.loop
    if loop is None:
        try:
            import uvloop  # noqa: F401
        except ImportError:
            loop = "asyncio"
        else:
            loop = "uvloop"
    results = measure(args.url, args.rounds, loop, args.messages)
    if args.json:
        print(
            json.dumps(
                {"python": platform.python_version(), "loop": loop, "results": results}, indent=2
            )
        )
        return 0
    print(
        f"Redis bus intake, {args.messages} messages of {len(MESSAGE)} bytes on {ROOMS} channels, "
        f"best of {args.rounds} (Python {platform.python_version()}, {loop})"
    )
    for way, figures in results.items():
        print(
            f"  {way:<6} {figures['cpu_us_per_message']:6.2f} µs CPU per message"
            f"  {figures['messages_per_second']:9.0f} messages/s"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
