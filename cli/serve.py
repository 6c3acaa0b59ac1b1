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
import logging
import logging.config
import os
import sys
from typing import Any

from rooms import RoomError, redact_url
from server.errors import SettingsError
from server.guards.capacity import fit_file_limit
from server.launch import (
    STARTUP_FAILED,
    StoreUnreachable,
    reach_store,
    run_workers,
    serve_in_process,
    setting_labels,
    unknown_variables,
    uvicorn_options,
    worker_env,
)
from server.logs import LOG_LEVELS, log_config
from server.metrics import MetricsListener, private_directory
from server.settings import Settings, metrics_address

__all__ = ["register", "settings_from_args"]

log = logging.getLogger("tictactoe.server")


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
        "a Redis Cluster: redis+cluster://host:port[,host:port...], or a primary found "
        "through Redis Sentinel: redis+sentinel://host:port[,host:port...]/service_name/db "
        "(also REDIS_URL; "
        "?prefix=NAME sets the key prefix)",
    )
    parser.add_argument("--workers", type=int, default=None, help="worker processes (default 1)")
    limits = parser.add_argument_group("limits")
    for flag, kind, text in (
        ("--max-frame-bytes", int, "largest WebSocket frame; bigger closes with 1009"),
        ("--max-message-bytes", int, "largest message; bigger gets too_large"),
        ("--max-body-bytes", int, "largest HTTP request body"),
        (
            "--max-connections",
            int,
            "open WebSockets per worker (default 10000); past it new ones close with 1013 "
            "and /readyz answers 503 from 90 %%",
        ),
        ("--rate", float, "messages per second per connection"),
        ("--burst", int, "message burst per connection"),
        ("--flood-strikes", int, "rate_limited refusals in a row before closing with 4008"),
        ("--join-timeout", float, "seconds to send join before closing with 4001"),
        ("--send-queue", int, "queued messages per connection before closing with 4009"),
        ("--ping-interval", float, "seconds between WebSocket pings"),
        ("--ping-timeout", float, "seconds to answer a ping before the peer counts as dead"),
        (
            "--heartbeat-timeout",
            float,
            "seconds a client that sends ping may stay silent before it is pinged, and then "
            "to answer before it is closed with 1011 (default 2.5)",
        ),
        ("--log-size", int, "events kept per room for resuming clients"),
        ("--room-ttl", float, "seconds a room is kept after its last change"),
        ("--max-rooms", int, "most rooms held in memory"),
        (
            "--admission-lag",
            float,
            "seconds of event-loop lag, sustained for a second, from which a worker refuses "
            "new rooms, quick plays and joins without a token as unavailable (default 0.5; "
            "0: never)",
        ),
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
    logs = parser.add_argument_group("logs and startup", "docs/operations.md#logs")
    logs.add_argument(
        "--log-level",
        default=None,
        help=f"level of every logger, uvicorn's and the app's: {', '.join(LOG_LEVELS)} "
        "(default info)",
    )
    logs.add_argument(
        "--log-format",
        default=None,
        help="text, or json: one object a line with time, level, logger, message, worker "
        "and, inside a connection, room and conn (default text)",
    )
    logs.add_argument(
        "--wait-for-redis",
        type=float,
        default=None,
        metavar="SECONDS",
        help="keep trying to reach the store this long, with backoff, before giving up "
        "(default 0: fail at once)",
    )
    _observability_flags(parser)
    stopping = parser.add_argument_group(
        "stopping and supervision", "docs/operations.md#stopping-draining-and-restarting"
    )
    stopping.add_argument(
        "--drain-period",
        type=float,
        default=None,
        metavar="SECONDS",
        help="after SIGTERM (or from SIGUSR1), keep serving this long with /readyz "
        "answering 503 so the balancer moves new clients away, then close the WebSockets "
        "with 1012 (default 0: close at once; Ctrl-C never drains)",
    )
    stopping.add_argument(
        "--boot-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="with --workers above 1: a worker not serving this long after it started is "
        "killed and replaced (default 60)",
    )
    stopping.add_argument(
        "--stall-timeout",
        type=float,
        default=None,
        metavar="SECONDS",
        help="with --workers above 1: a worker whose event loop sends no heartbeat this "
        "long is killed and replaced (default 30; 0: never)",
    )
    parser.set_defaults(func=run, setting_labels=setting_labels(parser))


def _observability_flags(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group(
        "observability", "off unless set; docs/operations.md#metrics, #traces, #error-reports"
    )
    group.add_argument(
        "--metrics-address",
        default=None,
        metavar="HOST:PORT",
        help="answer GET /metrics on this address only, not on --port (e.g. 127.0.0.1:9100)",
    )
    group.add_argument(
        "--metrics-token",
        default=None,
        help="/metrics answers only 'Authorization: Bearer TOKEN' (prefer "
        "TICTACTOE_METRICS_TOKEN: a flag shows in the process list)",
    )
    group.add_argument(
        "--operator-token",
        default=None,
        help="turn on the operators' API (/api/fairplay) for 'Authorization: Bearer TOKEN' "
        "(prefer TICTACTOE_OPERATOR_TOKEN: a flag shows in the process list)",
    )
    group.add_argument(
        "--otlp-endpoint",
        default=None,
        metavar="URL",
        help="send traces (a span per HTTP request and room command) over OTLP/HTTP to this "
        "collector, e.g. http://127.0.0.1:4318 (needs the otel extra)",
    )
    group.add_argument(
        "--sentry-dsn",
        default=None,
        metavar="DSN",
        help="report errors to Sentry, tagged with the release (needs the sentry extra; "
        "TICTACTOE_SENTRY_DSN keeps the key out of the process list)",
    )


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
        max_connections=args.max_connections,
        rate=args.rate,
        burst=args.burst,
        flood_strikes=args.flood_strikes,
        join_timeout=args.join_timeout,
        send_queue=args.send_queue,
        ping_interval=args.ping_interval,
        ping_timeout=args.ping_timeout,
        heartbeat_timeout=args.heartbeat_timeout,
        log_size=args.log_size,
        room_ttl=args.room_ttl,
        max_rooms=args.max_rooms,
        admission_lag=args.admission_lag,
        lease_ttl=args.lease_ttl,
        sweep_interval=args.sweep_interval,
        log_level=args.log_level,
        log_format=args.log_format,
        wait_for_redis=args.wait_for_redis,
        metrics_address=args.metrics_address,
        metrics_token=args.metrics_token,
        operator_token=args.operator_token,
        otlp_endpoint=args.otlp_endpoint,
        sentry_dsn=args.sentry_dsn,
        drain_period=args.drain_period,
        boot_timeout=args.boot_timeout,
        stall_timeout=args.stall_timeout,
    )


def _fail(message: str) -> int:
    print(f"tictactoe serve: error: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from server.app import create_app

    try:
        settings = settings_from_args(args)
        app = create_app(settings)
    except SettingsError as exc:
        return _fail(f"{args.setting_labels.get(exc.field, exc.field)}: {exc.reason}")
    except RoomError as exc:
        return _fail(exc.message)
    if not settings.static_dir.is_dir():
        return _fail(
            f"TICTACTOE_STATIC_DIR: {str(settings.static_dir)!r} is not a directory (the "
            "browser client's files; unset it to serve the client installed with the server)"
        )
    if settings.workers > 1 and not app.state.tictactoe.backend.shared:
        return _fail(
            f"--workers {settings.workers} needs a shared store: the in-memory store lives in "
            "one process, so other workers would not see its rooms (use --workers 1)"
        )
    short = fit_file_limit(settings.max_connections)
    if short is not None:
        print(f"tictactoe serve: warning: {short}", file=sys.stderr, flush=True)
    config = log_config(settings.log_level, settings.log_format)
    logging.config.dictConfig(config)  # this process's lines too; uvicorn applies it in each worker
    for warning in unknown_variables(os.environ):
        log.warning(warning)
    try:
        reach_store(settings, redact_url(settings.store_url), wait=settings.wait_for_redis)
    except StoreUnreachable as exc:
        print(f"tictactoe serve: error: {exc}", file=sys.stderr)
        return STARTUP_FAILED
    print(
        f"tictactoe: serving on {settings.url} (store: {redact_url(settings.store_url)}, "
        f"workers: {settings.workers})",
        flush=True,
    )
    listener = _metrics_listener(settings)  # a daemon thread: it ends with this process
    if isinstance(listener, str):
        print(f"tictactoe serve: error: {listener}", file=sys.stderr)
        return STARTUP_FAILED
    if settings.workers > 1:
        os.environ.update(worker_env(settings))
        # the workers' metrics, summed by any of them (server.metrics); removed once every
        # worker process has exited (run_workers returns only then)
        with private_directory():
            status = run_workers(
                settings.workers,
                config,
                uvicorn_options(settings),
                drain_period=settings.drain_period,
                boot_timeout=settings.boot_timeout,
                stall_timeout=settings.stall_timeout,
            )
    else:
        status = serve_in_process(app, config, uvicorn_options(settings))
    if status == STARTUP_FAILED:
        print(
            "tictactoe serve: error: a worker failed to start (why is logged above)",
            file=sys.stderr,
        )
    return status


def _metrics_listener(settings: Settings) -> MetricsListener | str | None:
    """``--metrics-address``'s listener, started; None without one, or why it cannot bind."""
    if not settings.metrics_address:
        return None
    listener = MetricsListener(metrics_address(settings.metrics_address), settings.metrics_token)
    try:
        listener.start()
    except OSError as exc:
        return f"--metrics-address {settings.metrics_address}: {exc.strerror or exc}"
    return listener
