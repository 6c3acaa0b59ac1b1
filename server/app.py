"""``create_app(settings)``: the Starlette application, its routes and its lifespan.

Nothing does I/O at import time or in ``create_app``: the store URL is checked there (an
unsupported one fails at once), and the lifespan opens the backend inside the
running loop, registers the worker's presence lease (heartbeat and sweep of dead workers
in the background), and undoes all of it at shutdown.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from functools import partial

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute, Mount, WebSocketRoute

from rooms import (
    BackendOptions,
    ErrorCode,
    Hub,
    Presence,
    Rater,
    RoomError,
    RoomService,
    Sweeper,
    Watch,
    open_backend,
)
from rooms.backends.due import DueIndex
from rooms.correspondence import DeadlineScanner
from rooms.fairplay.judge import FairPlayJudge
from rooms.guesses import GuessDesk
from rooms.push import PushBook
from rooms.tournaments import TournamentService
from rooms.tournaments.director import Director

from .api import api_routes, error_response
from .bot_api.gate import BotGate
from .bot_api.routes import bot_routes
from .bot_api.socket import bot_socket
from .bots import BotPool
from .crash_points import AFTER_RATING, crash_point
from .fastpath import Collector, RawSend
from .guards.admission import LoopLag
from .guards.capacity import ConnectionLimit
from .guards.headers import SecureStarlette
from .launch.startup import OneLineStartupFailure
from .logs import install_quiet, use_worker_id
from .logs.redact import install_redaction
from .metrics import (
    Flusher,
    HttpMetrics,
    announce_build,
    install_sink,
    metrics_routes,
    worker_exited,
)
from .push import PushDispatch, PushSender, VapidKey
from .settings import Settings
from .state import AppState, app_state
from .telemetry import Telemetry, TracingMiddleware
from .tournaments.feeds import TournamentFeeds
from .tournaments.socket import tournament_socket
from .web.embed_page import embed_routes
from .web.files import ClientFiles
from .web.room_page import room_page_routes
from .ws.heartbeat import Heartbeats
from .ws.socket import room_socket, watch_socket

__all__ = ["create_app"]


def create_app(settings: Settings | None = None) -> Starlette:
    """The server for ``settings`` (defaults, then environment, when None).

    Raises UnsupportedBackend (a RoomError) for a store URL this build cannot serve, and
    SettingsError for traces or error reports whose extra is not installed.
    """
    settings = settings if settings is not None else Settings.from_env()
    install_redaction()
    install_quiet()  # uvicorn records the app logs better itself (server.logs.quiet)
    install_sink()  # rooms/ reports commits, round trips, resyncs... (server.metrics)
    options = BackendOptions(
        log_size=settings.log_size,
        room_ttl=settings.room_ttl,
        max_rooms=settings.max_rooms,
        auto_pipeline=settings.fastpath,
    )
    backend = open_backend(settings.store_url, options)
    service = RoomService(backend.store)
    hub = Hub(backend.bus, service.cache)  # bus messages keep the service's room copies current
    bots = BotPool(settings.bot_pool, settings.bot_workers)
    watch = Watch(service, think=bots.think)
    # rated games' ends (rooms.ratings.rater); only tests crash between its two steps
    rater = Rater(service, backend.ratings, between=partial(crash_point, AFTER_RATING))
    fairplay = FairPlayJudge(service, backend.fairplay)  # each ended game, against the solver
    # correspondence games' deadlines, kept by the store and ended by any worker's scan
    store = backend.store
    deadlines = (
        DeadlineScanner(service, store, interval=settings.deadline_scan)
        if isinstance(store, DueIndex)  # every store of open_backend
        else None
    )
    push = PushDispatch(
        backend.push, queue=settings.push_queue, concurrency=settings.push_concurrency
    )
    service.observers.append(push.observe)  # turns and ends told to absent players
    hub.on_due = watch.noted  # the due of each event, parsed only when not null
    desk = GuessDesk(backend.guesses, service.load)
    hub.on_event = desk.observe  # a move's split, after the move went out (rooms.guesses)
    presence = Presence(backend.registry, service, ttl=settings.lease_ttl)
    # this worker's own listeners hear its commits from the commit; the bus carries them only
    # for other workers' (connection ids name their worker: rooms.common.ids)
    service.fan_out_locally(hub, worker=lambda: presence.worker)
    sweeper = Sweeper(backend.registry, service, presence, interval=settings.sweep_interval)
    tournaments = TournamentService(backend.tournaments)
    director = Director(tournaments, service, ratings=backend.ratings, bot_desk=backend.bot_desk)
    state = AppState(
        settings,
        backend,
        service,
        hub,
        watch,
        backend.queue,
        bots,
        presence,
        sweeper,
        tournaments,
        director,
        TournamentFeeds(tournaments),
        Heartbeats(settings.heartbeat_timeout),
        desk,
        Collector() if settings.tune_gc else None,
        connections=ConnectionLimit(settings.max_connections),
        lag=LoopLag(settings.admission_lag),
        rater=rater,
        fairplay=fairplay,
        bot_gate=BotGate(backend.players, settings),
        push=push,
    )

    flusher = Flusher()  # the per-move counts, into prometheus_client once a second
    telemetry = Telemetry(settings)  # traces, error reports: off unless set (server.telemetry)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        use_worker_id(lambda: presence.worker)  # log lines name the worker by its lease
        try:
            telemetry.start()
            await backend.open()
            try:
                push.start(await _push_sender(settings, backend.push))
                # Before the lease: starting the pool's first process waits for the fork
                # server to import the search code (up to a second on a busy host), in this
                # thread; a lease taken already could lapse meanwhile.
                bots.start()
                await presence.start()
                sweeper.start()
                director.start()
                if deadlines is not None:
                    deadlines.start()
                state.lag.start()
                state.heartbeats.start()
                announce_build(settings.store_url)
                flusher.start()
                if state.collector is not None:
                    state.collector.start()
                yield
            finally:
                if state.collector is not None:
                    state.collector.close()
                await state.lag.close()
                await state.heartbeats.close()
                await sweeper.close()
                await state.feeds.close()
                await director.close()
                if deadlines is not None:
                    await deadlines.close()
                await rater.close()
                await fairplay.close()
                await push.close()
                await watch.close()
                await desk.close()
                await asyncio.to_thread(bots.close, wait=True)  # server.bots: why it waits
                await service.close()  # lost commits still being checked: the store goes next
                await state.hub.close()
                await presence.close()  # departures still unrecorded, then the lease
                await backend.close()
                await flusher.close()  # the last counts, before this worker is marked gone
                worker_exited()  # its live gauges leave the workers' sums
        finally:
            use_worker_id(None)  # no lease (it failed to open, or is gone): the process id
            telemetry.close()  # the spans and reports still queued, sent

    client = ClientFiles(settings.static_dir)
    all_routes: list[BaseRoute] = [
        *bot_routes(),  # bot accounts (server.bot_api), before the API's /api catch-all
        *api_routes(),  # the API's endpoints, then its /api catch-all
        # before the client's files, which would answer /metrics too; a 404 when a listener of
        # its own serves it (--metrics-address, cli/serve.py)
        *metrics_routes(settings.metrics_token, elsewhere=bool(settings.metrics_address)),
        WebSocketRoute("/ws/t/{tournament_id}", tournament_socket),
        WebSocketRoute("/ws/bot", bot_socket),  # before /ws/{room_id}: "bot" is no room id
        WebSocketRoute("/ws/{room_id}", room_socket),
        WebSocketRoute("/ws/{room_id}/watch", watch_socket),  # spectators only
        *room_page_routes(client),  # the page with the room inside it
        *embed_routes(client),  # the game viewer other sites may frame
        Mount("/", app=client),
    ]
    app = SecureStarlette(  # security headers on every HTTP response (server.guards.headers)
        routes=all_routes,
        lifespan=lifespan,
        exception_handlers={HTTPException: _http_error},
        # the fastpath: a connection's frames skip Starlette's send wrappers
        middleware=[
            Middleware(OneLineStartupFailure),  # a failed start says why in one line
            Middleware(HttpMetrics),  # HTTP requests by route template and status
            Middleware(TracingMiddleware),  # a span per HTTP request, with traces on
            *([Middleware(RawSend)] if settings.fastpath else []),
        ],
    )
    app.state.tictactoe = state
    return app


async def _push_sender(settings: Settings, book: PushBook) -> PushSender:
    """The sender with the configured VAPID key, else the one the store keeps (the first
    worker to start stores the key it generated; every later one signs with that)."""
    if settings.push_vapid_key:
        key = VapidKey.parse(settings.push_vapid_key)
    else:
        key = VapidKey.parse(await book.vapid_key(VapidKey.generate().text))
    return PushSender(key, contact=settings.push_contact, timeout=settings.push_timeout)


async def _http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    if exc.status_code == 404:
        error = RoomError(ErrorCode.NOT_FOUND, f"nothing at {request.url.path!r:.80}")
    else:
        error = RoomError(ErrorCode.BAD_MESSAGE, f"{request.method} is not allowed here")
    response = error_response(error)
    response.status_code = exc.status_code
    if exc.headers:
        response.headers.update(exc.headers)
    return response


__all__ += ["app_state"]
