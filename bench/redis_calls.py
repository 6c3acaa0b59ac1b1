"""Redis store calls: the worker's CPU time per auto-pipelined call, in process.

    .venv/bin/python -m bench.redis_calls [--url redis://127.0.0.1:6379/9] [--rounds 5]

Against a real Redis (the local one, database 9, by default; keys under a fresh prefix, deleted
afterwards). Each figure is this process's CPU time per call (Redis' own excluded), the best of
``--rounds`` rounds:

- *load*, *events_since*: ``CONCURRENT`` ``RedisStore`` calls gathered at once (sharing round
  trips, as a busy worker's do), ``REPEAT`` times;
- *guard*: entering and leaving a call's guard around nothing: ``guarded`` (its own
  ``asyncio.timeout``) and the auto-pipelined calls' ``calls.guard``.

Runs on the server's loop (uvloop when installed; ``--loop``).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import platform
import secrets
import sys
from collections.abc import Awaitable, Callable
from time import process_time
from typing import Any

from rooms.backends.redis.connect import RedisOptions, guarded
from rooms.backends.redis.store import RedisStore

__all__ = ["main", "measure"]

CONCURRENT = 100
REPEAT = 100
GUARDS = 100_000
GUARD_TURN = 100


async def _per_call(calls: int, run: Callable[[], Awaitable[Any]], times: int) -> float:
    started = process_time()
    for _ in range(times):
        await run()
    return (process_time() - started) / (times * calls) * 1e6


async def _round(url: str) -> dict[str, float]:
    store = RedisStore(url, prefix=f"bench-calls-{secrets.token_hex(4)}", options=RedisOptions())
    await store.open()
    try:
        rooms = [f"calls{i:03d}" for i in range(CONCURRENT)]
        await asyncio.gather(*(store.create(room, "{}", listed=False) for room in rooms))

        def loads() -> Awaitable[Any]:
            return asyncio.gather(*(store.load(room) for room in rooms))

        def logs() -> Awaitable[Any]:
            return asyncio.gather(*(store.events_since(room, 0) for room in rooms))

        await loads()  # warm: the connection and the script are there
        await logs()
        found = {
            "load": await _per_call(CONCURRENT, loads, REPEAT),
            "events_since": await _per_call(CONCURRENT, logs, REPEAT),
        }

        async def plain() -> None:
            for _ in range(GUARD_TURN):
                async with guarded("bench", 2.0):
                    pass
            await asyncio.sleep(0)  # a loop turn, as between calls: cancelled timers go

        async def pipelined() -> None:
            for _ in range(GUARD_TURN):
                async with store.calls.guard("bench", 2.0):
                    pass
            await asyncio.sleep(0)

        found["guard: guarded"] = await _per_call(GUARD_TURN, plain, GUARDS // GUARD_TURN)
        found["guard: calls.guard"] = await _per_call(GUARD_TURN, pipelined, GUARDS // GUARD_TURN)
        return found
    finally:
        client = store.client
        keys = [key async for key in client.scan_iter(match=f"{store.layout.prefix}:*")]
        if keys:
            await client.delete(*keys)
        await store.close()


def measure(url: str, rounds: int = 5, loop: str = "uvloop") -> dict[str, float]:
    results: list[dict[str, float]] = []
    for _ in range(rounds):
        gc.collect()
        if loop == "uvloop":
            import uvloop

            results.append(uvloop.run(_round(url)))
        else:
            results.append(asyncio.run(_round(url)))
    return {key: min(result[key] for result in results) for key in results[0]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.redis_calls", description=__doc__)
    parser.add_argument("--url", default="redis://127.0.0.1:6379/9")
    parser.add_argument("--rounds", type=int, default=5, help="best of this many rounds")
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
    results = measure(args.url, args.rounds, loop)
    if args.json:
        print(
            json.dumps(
                {"python": platform.python_version(), "loop": loop, "results": results}, indent=2
            )
        )
        return 0
    print(
        f"Redis store CPU time per call, best of {args.rounds} "
        f"(Python {platform.python_version()}, {loop})"
    )
    for name, value in results.items():
        print(f"  {name:<24} {value:7.2f} µs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
