"""``tictactoe serve``: run the server under uvicorn and print the URL to open.

uvloop and httptools are used when installed; WebSockets use uvicorn's websockets sans-I/O
implementation when available (else the websockets one), with per-message compression off
(it multiplies the memory held per connection). ``--no-fastpath`` runs uvicorn's stock
protocols, plain Starlette and plain redis-py (server.fastpath). The in-memory store lives
in one process, so ``--workers`` above 1 is refused with it. With Redis (``--redis-url`` or
``REDIS_URL``) ``--workers N`` runs N uvicorn worker processes; each builds its own app from
the environment, so the parent hands its settings down as ``TICTACTOE_*`` variables.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import sys
from dataclasses import fields
from typing import Any
from urllib.parse import urlsplit

from rooms import RoomError

from ..errors import SettingsError
from ..settings import Settings

__all__ = ["register", "uvicorn_options", "worker_env"]


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "serve",
        help="run the multiplayer server (HTTP + WebSocket)",
        description="Serve rooms over HTTP and WebSocket (docs/protocol.md). Every flag "
        "also reads an environment variable TICTACTOE_<NAME> (e.g. TICTACTOE_PORT); "
        "REDIS_URL selects the store like --redis-url.",
    )
    parser.add_argument("--host", default=None, help="interface to bind (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=None, help="port (default 8000)")
    parser.add_argument(
        "--allowed-origins",
        default=None,
        help="comma-separated origins allowed to open WebSockets besides the server's own "
        "(e.g. https://example.com); '*' allows any",
    )
    parser.add_argument(
        "--redis-url",
        default=None,
        help="keep rooms in Redis, shared by every worker and host: redis://host:port/db, "
        "or a Redis Cluster: redis+cluster://host:port[,host:port...] (also REDIS_URL; "
        "?prefix=NAME sets the key prefix)",
    )
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default 1)")
    limits = parser.add_argument_group("limits")
    for flag, kind, text in (
        ("--max-frame-bytes", int, "largest WebSocket frame; bigger closes with 1009"),
        ("--max-message-bytes", int, "largest message; bigger gets too_large"),
        ("--max-body-bytes", int, "largest HTTP request body"),
        ("--rate", float, "messages per second per connection"),
        ("--burst", int, "message burst per connection"),
        ("--flood-strikes", int, "rate_limited refusals in a row before closing with 4008"),
        ("--join-timeout", float, "seconds to send join before closing with 4001"),
        ("--send-queue", int, "queued messages per connection before closing with 4009"),
        ("--ping-interval", float, "seconds between WebSocket pings"),
        ("--ping-timeout", float, "seconds to answer a ping before the peer counts as dead"),
        ("--log-size", int, "events kept per room for resuming clients"),
        ("--room-ttl", float, "seconds a room is kept after its last change"),
        ("--max-rooms", int, "most rooms held in memory"),
    ):
        limits.add_argument(flag, type=kind, default=None, help=text)
    presence = parser.add_argument_group(
        "presence",
        "each worker holds a lease renewed by a heartbeat; when one dies, a live "
        "worker removes its connections from their rooms (docs/operations.md)",
    )
    presence.add_argument(
        "--lease-ttl",
        type=float,
        default=None,
        help="seconds a worker's lease lasts without a heartbeat: a dead worker's players "
        "still look connected for about this plus --sweep-interval (default 15)",
    )
    presence.add_argument(
        "--sweep-interval",
        type=float,
        default=None,
        help="seconds between two looks for dead workers to clean up after (default 5)",
    )
    parser.add_argument(
        "--no-tune-gc",
        dest="tune_gc",
        action="store_false",
        default=None,
        help="leave the garbage collector at CPython's defaults (by default each worker "
        "freezes its startup heap, freezes the young objects every 50 ms instead of "
        "collecting them, and collects everything only once the heap has doubled: "
        "shorter pauses, docs/operations.md; TICTACTOE_TUNE_GC=0 does the same)",
    )
    parser.add_argument(
        "--no-fastpath",
        dest="fastpath",
        action="store_false",
        default=None,
        help="run on plain Starlette, uvicorn's stock protocols and plain redis-py calls: "
        "no frames written past Starlette, no Redis auto-pipelining and, unless "
        "TICTACTOE_TUNE_GC says otherwise, CPython's garbage collector defaults; the same "
        "protocol, slower (TICTACTOE_FASTPATH=0 does the same)",
    )
    parser.add_argument("--log-level", default="info", help="uvicorn log level (default info)")
    parser.set_defaults(func=run)


def settings_from_args(args: argparse.Namespace) -> Settings:
    origins = None
    if args.allowed_origins is not None:
        origins = tuple(o.strip() for o in args.allowed_origins.split(",") if o.strip())
    base = Settings.from_env()
    fastpath = base.fastpath if args.fastpath is None else args.fastpath
    # On by default for the server run from here (GC tuning is part of the fastpath),
    # unless TICTACTOE_TUNE_GC says otherwise.
    tune_gc = args.tune_gc
    if tune_gc is None and not os.environ.get("TICTACTOE_TUNE_GC"):
        tune_gc = fastpath
    return base.with_changes(
        fastpath=fastpath,
        tune_gc=tune_gc,
        host=args.host,
        port=args.port,
        store_url=args.redis_url,
        allowed_origins=origins,
        workers=args.workers,
        max_frame_bytes=args.max_frame_bytes,
        max_message_bytes=args.max_message_bytes,
        max_body_bytes=args.max_body_bytes,
        rate=args.rate,
        burst=args.burst,
        flood_strikes=args.flood_strikes,
        join_timeout=args.join_timeout,
        send_queue=args.send_queue,
        ping_interval=args.ping_interval,
        ping_timeout=args.ping_timeout,
        log_size=args.log_size,
        room_ttl=args.room_ttl,
        max_rooms=args.max_rooms,
        lease_ttl=args.lease_ttl,
        sweep_interval=args.sweep_interval,
    )


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn Config keywords for ``settings``: the fastest implementations installed,
    and with the fastpath on, the protocol subclasses that free a connection once it ends."""
    from uvicorn.config import WS_PROTOCOLS

    installed = importlib.util.find_spec
    http: type | str = "httptools" if installed("httptools") else "h11"
    ws: type | str = "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "websockets"
    if settings.fastpath and http == "httptools" and ws == "websockets-sansio":
        # the module subclasses both, so it is imported only when both are there
        from ..fastpath.uvicorn_protocols import ReleasingWebSockets, UpgradeReleasingHttpTools

        http, ws = UpgradeReleasingHttpTools, ReleasingWebSockets
    return {
        "host": settings.host,
        "port": settings.port,
        "loop": "uvloop" if installed("uvloop") else "asyncio",
        "http": http,
        "ws": ws,
        "ws_max_size": settings.max_frame_bytes,
        "ws_ping_interval": settings.ping_interval,
        "ws_ping_timeout": settings.ping_timeout,
        "ws_per_message_deflate": False,
        "lifespan": "on",
    }


def worker_env(settings: Settings) -> dict[str, str]:
    """The ``TICTACTOE_*`` variables that make ``Settings.from_env()`` equal ``settings``."""
    env = {}
    for spec in fields(settings):
        value = getattr(settings, spec.name)
        text = ",".join(value) if isinstance(value, tuple) else str(value)
        env[f"TICTACTOE_{spec.name.upper()}"] = text
    return env


def _shown(url: str) -> str:
    """A store URL fit to print: never its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    return parts._replace(netloc=parts.netloc.replace(f":{parts.password}@", ":***@")).geturl()


def _fail(message: str) -> int:
    print(f"tictactoe serve: error: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    import uvicorn

    from ..app import create_app

    try:
        settings = settings_from_args(args)
        app = create_app(settings)
    except SettingsError as exc:
        return _fail(f"--{exc.field.replace('_', '-')}: {exc.reason}")
    except RoomError as exc:
        return _fail(exc.message)
    if settings.workers > 1 and not app.state.tictactoe.backend.shared:
        return _fail(
            f"--workers {settings.workers} needs a shared store: the in-memory store lives in "
            "one process, so other workers would not see its rooms (use --workers 1)"
        )
    print(
        f"tictactoe: serving on {settings.url} (store: {_shown(settings.store_url)}, "
        f"workers: {settings.workers})",
        flush=True,
    )
    if settings.workers > 1:
        os.environ.update(worker_env(settings))
        uvicorn.run(
            "server.app:create_app",
            factory=True,
            workers=settings.workers,
            log_level=args.log_level,
            **uvicorn_options(settings),
        )
        return 0
    config = uvicorn.Config(app, log_level=args.log_level, **uvicorn_options(settings))
    uvicorn.Server(config).run()
    return 0
