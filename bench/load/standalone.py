"""``python -m`` entry of the bench's comparison servers (the relay, the plain server).

Each runs on exactly the server's uvicorn options (``server.launch.uvicorn_options``), so
that a ratio compares applications, not stacks; with several workers, uvicorn imports the
app's factory in each and the Redis URL travels in an environment variable.
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable, Sequence

from starlette.applications import Starlette

__all__ = ["serve_standalone"]


def serve_standalone(
    argv: Sequence[str] | None,
    *,
    prog: str,
    description: str | None,
    port: int,
    create: Callable[[str | None], Starlette],
    factory: str,
    env_redis: str,
) -> int:
    """Parse ``--port``, ``--redis-url`` and ``--workers``, then run ``create``'s app (with
    several workers: the ``factory`` import path) under uvicorn until stopped."""
    import uvicorn

    from server import Settings
    from server.launch import uvicorn_options

    parser = argparse.ArgumentParser(prog=prog, description=description)
    parser.add_argument("--port", type=int, default=port)
    parser.add_argument("--redis-url", default=None)
    parser.add_argument("--workers", type=int, default=1)
    args = parser.parse_args(argv)
    if args.workers > 1 and not args.redis_url:
        parser.error("--workers above 1 needs --redis-url (what one process keeps is its own)")
    options = uvicorn_options(Settings(port=args.port))  # exactly the server's uvicorn setup
    if args.workers > 1:
        os.environ[env_redis] = args.redis_url
        uvicorn.run(factory, factory=True, workers=args.workers, log_level="warning", **options)
    else:
        uvicorn.run(create(args.redis_url), log_level="warning", **options)
    return 0
