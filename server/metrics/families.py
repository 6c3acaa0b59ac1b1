"""Every metric the server exports: name, type, labels and help, in one place.

Defined once per process in prometheus_client's default registry. With
``PROMETHEUS_MULTIPROC_DIR`` set before this is imported (``tictactoe serve --workers N``,
server.metrics.multiprocess), each value lives in a file of that directory and a scrape of
any worker sums them all; the gauges then count live workers only (``livesum``).
docs/operations.md ("Metrics") lists them for operators.
"""

from __future__ import annotations

from functools import cache

from prometheus_client import Counter, Gauge, Histogram

__all__ = [
    "ADMISSION_REFUSALS",
    "BOTS_ONLINE",
    "BOT_AUTH",
    "BOT_MOVES",
    "BOT_REFUSALS",
    "BUILD_INFO",
    "BUS_RECONNECTS",
    "CLOSES",
    "COLLECTOR_PAUSE",
    "FAIRPLAY_FLAGS",
    "FAIRPLAY_GAMES",
    "COMMIT_SECONDS",
    "CONNECTIONS",
    "ERRORS",
    "FAST_BUCKETS",
    "HTTP_REQUESTS",
    "HTTP_SECONDS",
    "LEASE_LOSSES",
    "LOOP_LAG",
    "MESSAGES",
    "PUSH_MESSAGES",
    "REDIS_ROUND_TRIP",
    "RESYNCS",
    "ROOMS_ACTIVE",
    "SEND_QUEUE_DROPS",
    "UNAVAILABLE",
    "worker_process_gauges",
]

FAST_BUCKETS = (
    0.0001,
    0.00025,
    0.0005,
    0.001,
    0.0025,
    0.005,
    0.01,
    0.025,
    0.05,
    0.1,
    0.25,
    0.5,
    1.0,
)
"""Seconds, for store calls: memory commits in the first bucket, Redis ones around 1 ms,
the 2-second ``unavailable`` deadline in +Inf."""

CONNECTIONS = Gauge(
    "tictactoe_connections",
    "Joined WebSocket connections, by role (player or spectator).",
    ["role"],
    multiprocess_mode="livesum",
)
ROOMS_ACTIVE = Gauge(
    "tictactoe_rooms_active",
    "Rooms with at least one connection on a worker, summed over the workers.",
    multiprocess_mode="livesum",
)
MESSAGES = Counter(
    "tictactoe_messages_received",
    "Client messages parsed, by protocol type (a frame refused before it parses is "
    "counted in tictactoe_errors_total only).",
    ["type"],
)
ERRORS = Counter(
    "tictactoe_errors",
    "Error answers sent, by stable error code and transport (websocket or http).",
    ["code", "transport"],
)
CLOSES = Counter(
    "tictactoe_closes",
    "WebSocket sessions ended, by the close code the server sent (peer: the client "
    "closed or went away first).",
    ["code"],
)
COMMIT_SECONDS = Histogram(
    "tictactoe_commit_seconds",
    "Compare-and-set commits of a room change in the store, won or lost.",
    buckets=FAST_BUCKETS,
)
REDIS_ROUND_TRIP = Histogram(
    "tictactoe_redis_round_trip_seconds",
    "Round trips of the store's hot Redis commands (one auto-pipelined batch, or one "
    "command without the fastpath).",
    buckets=FAST_BUCKETS,
)
LOOP_LAG = Gauge(
    "tictactoe_event_loop_lag_seconds",
    "How late the event loop woke a timer, the most of the last second (server.guards.admission); "
    "the most over the live workers.",
    multiprocess_mode="livemax",
)
ADMISSION_REFUSALS = Counter(
    "tictactoe_admission_refusals",
    "New rooms, quick plays, guest identities and joins without a token nor last_version "
    "refused as unavailable because the worker's event loop ran late (server.guards.admission), "
    "by what was refused.",
    ["what"],
)
UNAVAILABLE = Counter(
    "tictactoe_unavailable",
    "Redis failures answered as unavailable, by operation (commit, load, publish...).",
    ["operation"],
)
BUS_RECONNECTS = Counter(
    "tictactoe_bus_reconnects",
    "Pub/sub connections made again after one broke.",
)
RESYNCS = Counter(
    "tictactoe_resyncs",
    "Rooms' latest events redelivered after a bus reconnect (kind=bus), or connections' "
    "version gaps repaired from the store (kind=gap).",
    ["kind"],
)
FAIRPLAY_GAMES = Counter(
    "tictactoe_fairplay_games",
    "Finished games judged against the solver and counted in the fair-play ledger "
    "(rooms.fairplay; each game once, by the worker that judged it).",
)
FAIRPLAY_FLAGS = Counter(
    "tictactoe_fairplay_flags",
    "Identities that became flagged for an implausible match rate with perfect play over "
    "many critical positions (a mark for an operator to look, never a sanction).",
)
BOTS_ONLINE = Gauge(
    "tictactoe_bots_online",
    "Bot accounts' sockets (/ws/bot) open, summed over the live workers.",
    multiprocess_mode="livesum",
)
BOT_AUTH = Counter(
    "tictactoe_bot_token_checks",
    "Bot tokens presented (bot socket hellos, room joins), by result: ok or refused.",
    ["result"],
)
BOT_MOVES = Counter(
    "tictactoe_bot_moves",
    "Moves sent by bot accounts' seats that passed the bot checks (token, moves a second).",
)
BOT_REFUSALS = Counter(
    "tictactoe_bot_refusals",
    "Bot accounts refused by a per-bot limit: max_games, games_per_day, moves_per_second, "
    "or auth_rate (token checks too fast).",
    ["limit"],
)
PUSH_MESSAGES = Counter(
    "tictactoe_push_messages",
    "Web Push messages by outcome: sent (the push service took it), failed (it refused, "
    "was unreachable or too slow; the subscription is kept), dropped (it answered 404 or "
    "410: the subscription was removed), overflow (a notice dropped on a full queue).",
    ["outcome"],
)
LEASE_LOSSES = Counter(
    "tictactoe_lease_losses",
    "Presence leases lost (the worker's connections closed with 1012 to resume).",
)
SEND_QUEUE_DROPS = Counter(
    "tictactoe_send_queue_drops",
    "Connections dropped because their send queue was full (closed with 4009).",
)
COLLECTOR_PAUSE = Histogram(
    "tictactoe_collector_pause_seconds",
    "Event loop pauses of the tuned garbage collector (server.fastpath.collector): "
    "kind=freeze (every 50 ms) or full (the heap doubled).",
    ["kind"],
    buckets=(0.00001, 0.0001, 0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)

BUILD_INFO = Gauge(
    "tictactoe_build_info",
    "1, labelled with the server's version, the Python version and the kind of store "
    "(memory, redis, redis+cluster, redis+sentinel).",
    ["version", "python", "store"],
    multiprocess_mode="livemax",
)
HTTP_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)
"""Seconds, for HTTP requests: a file or a room read in the first buckets, an analysis or a
Redis timeout in the last."""
HTTP_REQUESTS = Counter(
    "tictactoe_http_requests",
    "HTTP requests answered (WebSocket upgrades are counted by tictactoe_connections), by "
    "method, route template (/api/rooms/{room_id}, not the path) and status.",
    ["method", "route", "status"],
)
HTTP_SECONDS = Histogram(
    "tictactoe_http_request_duration_seconds",
    "HTTP requests from their arrival to their response's last byte handed to the server, "
    "by method, route template and status.",
    ["method", "route", "status"],
    buckets=HTTP_BUCKETS,
)


@cache
def worker_process_gauges() -> tuple[Gauge, Gauge, Gauge]:
    """Each worker's own process figures (memory, descriptors, CPU seconds), by pid in
    multiprocess mode (server.metrics.process samples them).

    Made at the first sample, not at import: an unlabelled multiprocess gauge writes a 0 for
    its process as soon as it exists, and the bot pool's processes import this module too;
    they would show up as workers with nothing in use."""
    memory = Gauge(
        "tictactoe_worker_resident_memory_bytes",
        "Resident memory of each worker process (label pid with several workers).",
        multiprocess_mode="liveall",
    )
    fds = Gauge(
        "tictactoe_worker_open_fds",
        "Open file descriptors of each worker process (one per connection, and a few more).",
        multiprocess_mode="liveall",
    )
    cpu = Gauge(
        "tictactoe_worker_cpu_seconds",
        "CPU seconds (user and system) each worker process has used since it started; a "
        "gauge per live worker, so rate() it like a counter.",
        multiprocess_mode="liveall",
    )
    return memory, fds, cpu
