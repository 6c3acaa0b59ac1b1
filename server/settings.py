"""Server settings: defaults, overridden by environment variables, overridden by flags.

Every setting has an environment variable ``TICTACTOE_<NAME>`` (``REDIS_URL`` also selects
the store). Values are checked when the Settings are built; a SettingsError names the field.

``Settings`` is one flat frozen dataclass: every setting is a field, read and loaded the same
way (``from_env``, the CLI's flags, the variables a supervisor hands its workers). Families of
settings with a life of their own are groups of fields it inherits, each with its checks: the
bots' (``settings_bots``) and Web Push (``settings_push``); the checks of a single value are in
``settings_checks``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from importlib import resources
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from rooms import RoomSettings, TimeControl

from .errors import SettingsError
from .guards.origin import normalize_origin
from .logs.setup import LOG_FORMATS, LOG_LEVELS
from .settings_bots import BotSettings
from .settings_checks import (
    non_negative_number,
    one_of,
    positive_int,
    positive_number,
    stripped_text,
    true_or_false,
)
from .settings_push import PushSettings

__all__ = ["DEFAULT_STATIC", "Settings", "metrics_address"]


def _client_files() -> Path:
    """The browser client: ``server/client/`` where the distribution is installed (the
    wheel ships the repository's ``static/`` there), else the checkout's ``static/``."""
    installed = Path(str(resources.files("server") / "client"))
    if installed.is_dir():
        return installed
    return Path(__file__).resolve().parent.parent / "static"


DEFAULT_STATIC = _client_files()


@dataclass(frozen=True, slots=True)
class Settings(BotSettings, PushSettings):
    host: str = "127.0.0.1"
    port: int = 8000
    store_url: str = "memory://"
    """``memory://`` (one process), ``redis://host:port/db`` (one Redis),
    ``redis+cluster://host:port[,host:port...]`` (a Redis Cluster) or
    ``redis+sentinel://host:port[,host:port...]/service_name/db`` (Redis Sentinel)."""
    allowed_origins: tuple[str, ...] = ()
    """Origins allowed to open WebSockets besides the server's own; ``*`` allows any."""
    workers: int = 1
    max_frame_bytes: int = 16384
    max_message_bytes: int = 4096
    max_body_bytes: int = 4096
    max_connections: int = 10_000
    """Open WebSockets per worker; past it a new one is closed with 1013 (try again later),
    and ``/readyz`` answers 503 from 90 % on. Each needs a file descriptor."""
    rate: float = 20.0
    burst: int = 40
    flood_strikes: int = 20
    join_timeout: float = 10.0
    send_queue: int = 256
    ping_interval: float = 20.0
    ping_timeout: float = 20.0
    heartbeat_timeout: float = 2.5
    """Seconds a client that sends ``ping`` may go without sending anything before the server
    pings it at the WebSocket level, and then to answer before it is closed with 1011
    (server.ws.heartbeat): a cut-off browser is noticed within ``2 * it + 1`` seconds."""
    close_timeout: float = 5.0
    admission_lag: float = 0.5
    """Seconds of event-loop lag, sustained for a second, from which a worker refuses new
    rooms, quick plays and joins without a token nor last_version (server.guards.admission);
    0: never."""
    log_size: int = 256
    room_ttl: float = 24 * 3600.0
    max_rooms: int = 100_000
    list_limit: int = 100
    static_dir: Path = field(default=DEFAULT_STATIC)
    abandon_grace: float = 30.0
    """Seconds a player's seat must have no connection before the opponent may claim."""
    leave_grace: float = 5.0
    """The same after the player said ``leave`` (closed the tab on purpose)."""
    takeback_backoff: float = 5.0
    first_move: float = 30.0
    """The limit on each player's first move in rooms with a time control."""
    correspondence_day: float = 24 * 3600.0
    """Seconds a day of a correspondence time control counts (a test and operations knob:
    tests play a "day" of a few seconds); a room keeps the allowance it was made with."""
    deadline_scan: float = 5.0
    """Seconds between two looks of this worker at the store's index of correspondence
    deadlines (rooms.correspondence.scanner): how late a missed deadline may end its game."""
    chat_rate: float = 0.5
    chat_burst: int = 5
    lease_ttl: float = 15.0
    """Seconds a worker's presence lease lasts unless its heartbeat (every third of it)
    renews it: how long a dead worker's connections still look connected, at most."""
    sweep_interval: float = 5.0
    """Seconds between two looks of this worker for dead workers to clean up after."""
    tune_gc: bool = False
    """Freeze the startup heap and make full garbage collections rare (server.fastpath.
    collector): shorter pauses for a worker holding many connections. ``tictactoe serve``
    turns it on (unless ``fastpath`` is off); it is process-wide, so an app built inside
    another program leaves it off."""
    fastpath: bool = True
    """Send frames past Starlette (server.fastpath), run uvicorn's protocol subclasses
    and auto-pipeline Redis commands. Off: plain Starlette, uvicorn's stock protocols and
    plain redis-py calls, with the same behaviour and the same bytes on the wire."""
    log_level: str = "info"
    """``tictactoe serve``'s level for every logger (server.logs.LOG_LEVELS)."""
    log_format: str = "text"
    """``tictactoe serve``'s log lines: ``text`` or ``json`` (one object a line)."""
    wait_for_redis: float = 0.0
    """Seconds ``tictactoe serve`` keeps trying to reach the store before it gives up."""
    # Observability (docs/operations.md, "Metrics", "Traces", "Error reports")
    metrics_address: str = ""
    """``host:port`` where ``tictactoe serve`` answers ``GET /metrics`` on a listener of its
    own, and the app's port no longer does; empty: on the app's port."""
    metrics_token: str = ""
    """When set, ``/metrics`` answers only requests with ``Authorization: Bearer <it>``."""
    operator_token: str = ""
    """When set, the operators' API (``/api/fairplay``) answers requests with
    ``Authorization: Bearer <it>``; empty: that API answers 404, as if absent."""
    otlp_endpoint: str = ""
    """The OTLP/HTTP collector's base URL (``http://collector:4318``): a span per HTTP
    request and per room command, sent to ``<it>/v1/traces`` (needs the ``otel`` extra)."""
    sentry_dsn: str = ""
    """Report errors to this Sentry DSN, tagged with the release (the ``sentry`` extra)."""
    drain_period: float = 0.0
    """Seconds a worker keeps serving after SIGTERM (or from SIGUSR1) with ``/readyz``
    answering 503 ``draining``, so the balancer moves new clients elsewhere before the
    open WebSockets are closed with 1012; 0: close them at once (server.launch.worker)."""
    boot_timeout: float = 60.0
    """Seconds the supervisor of ``--workers N`` gives a worker to start serving before it
    kills it and starts another (server.launch.workers)."""
    stall_timeout: float = 30.0
    """Seconds a worker's event loop may go without a heartbeat to the supervisor before
    it is killed and replaced; 0: never."""

    def __post_init__(self) -> None:
        positive_int(self, "port", high=65535, low=0)
        for name in (
            "workers",
            "max_frame_bytes",
            "max_message_bytes",
            "max_body_bytes",
            "max_connections",
            "burst",
            "flood_strikes",
            "send_queue",
            "log_size",
            "max_rooms",
            "list_limit",
            "chat_burst",
        ):
            positive_int(self, name)
        for name in (
            "rate",
            "join_timeout",
            "ping_interval",
            "ping_timeout",
            "heartbeat_timeout",
            "close_timeout",
            "room_ttl",
            "abandon_grace",
            "leave_grace",
            "takeback_backoff",
            "first_move",
            "correspondence_day",
            "deadline_scan",
            "chat_rate",
            "lease_ttl",
            "sweep_interval",
            "boot_timeout",
        ):
            positive_number(self, name)
        if self.correspondence_day > 24 * 3600:
            raise SettingsError(
                "correspondence_day",
                f"must be at most 86400 (a day), got {self.correspondence_day!r}",
            )
        for name in ("tune_gc", "fastpath"):
            true_or_false(self, name)
        one_of(self, "log_level", LOG_LEVELS)
        one_of(self, "log_format", LOG_FORMATS)
        for name in ("admission_lag", "wait_for_redis", "drain_period", "stall_timeout"):
            non_negative_number(self, name)
        _observability(self)
        self._check_bots()
        self._check_push()
        if self.max_message_bytes > self.max_frame_bytes:
            raise SettingsError(
                "max_message_bytes",
                f"{self.max_message_bytes} is above max_frame_bytes ({self.max_frame_bytes})",
            )
        origins = []
        for origin in self.allowed_origins:
            if origin.strip() == "*":
                origins.append("*")
                continue
            try:
                origins.append(normalize_origin(origin))
            except ValueError as exc:
                raise SettingsError("allowed_origins", str(exc)) from None
        object.__setattr__(self, "allowed_origins", tuple(origins))

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        shown = "127.0.0.1" if self.host in {"0.0.0.0", ""} else host
        return f"http://{shown}:{self.port}"

    def room_settings(
        self,
        time_control: TimeControl | None = None,
        *,
        pool: str | None = None,
        bots: bool = False,
    ) -> RoomSettings:
        """What a new room is created with (stored in it, so every worker agrees); ``pool``:
        the rating pool of a rated room; ``bots``: bot accounts may sit there."""
        return RoomSettings(
            pool=pool,
            bots=bots,
            abandon_grace=self.abandon_grace,
            leave_grace=self.leave_grace,
            takeback_backoff=self.takeback_backoff,
            bot_budget=self.bot_budget,
            bot_grace=self.bot_grace,
        ).with_time_control(time_control)

    def with_changes(self, **changes: Any) -> Settings:
        """A copy with some settings changed (None values are ignored)."""
        return replace(self, **{k: v for k, v in changes.items() if v is not None})

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> Settings:
        """Defaults overridden by ``TICTACTOE_<NAME>`` variables (and ``REDIS_URL``)."""
        env = os.environ if env is None else env
        changes: dict[str, Any] = {}
        if env.get("REDIS_URL"):
            changes["store_url"] = env["REDIS_URL"]
        for spec in fields(cls):
            raw = env.get(f"TICTACTOE_{spec.name.upper()}")
            if raw is None or raw == "":
                continue
            changes[spec.name] = _convert(spec.name, raw, spec.default)
        return cls(**changes)


def _observability(settings: Settings) -> None:
    for name in (
        "metrics_address",
        "metrics_token",
        "operator_token",
        "otlp_endpoint",
        "sentry_dsn",
    ):
        stripped_text(settings, name)
    if settings.metrics_address:
        metrics_address(settings.metrics_address)
    for name in ("otlp_endpoint", "sentry_dsn"):
        value = getattr(settings, name)
        parts = urlsplit(value)
        if value and (parts.scheme not in {"http", "https"} or not parts.hostname):
            raise SettingsError(name, f"must be an http:// or https:// URL, got {value!r:.80}")
    if settings.sentry_dsn and not urlsplit(settings.sentry_dsn).username:
        raise SettingsError(
            "sentry_dsn", "must name the project's public key (https://KEY@host/ID)"
        )


def metrics_address(text: str) -> tuple[str, int]:
    """``host:port`` (``[::1]:9100`` for IPv6) as (host, port); SettingsError otherwise."""
    host, colon, port = text.rpartition(":")
    host = host[1:-1] if host.startswith("[") and host.endswith("]") else host
    if not colon or not port.isdigit() or not 0 < int(port) <= 65535:
        raise SettingsError("metrics_address", f"must be host:port, got {text!r}")
    return host or "0.0.0.0", int(port)


def _convert(name: str, raw: str, default: object) -> object:
    try:
        if isinstance(default, tuple):
            return tuple(part.strip() for part in raw.split(",") if part.strip())
        if isinstance(default, Path):
            return Path(raw)
        if isinstance(default, bool):
            return _boolean(raw)
        if isinstance(default, int):
            return int(raw)
        if isinstance(default, float):
            return float(raw)
    except ValueError:
        expected = " (expected 1, true, yes, on or 0, false, no, off)"
        raise SettingsError(
            name,
            f"cannot read {raw!r} from TICTACTOE_{name.upper()}"
            + (expected if isinstance(default, bool) else ""),
        ) from None
    return raw


_TRUE = frozenset({"1", "true", "yes", "on"})
_FALSE = frozenset({"0", "false", "no", "off"})


def _boolean(raw: str) -> bool:
    """A yes/no environment value; ValueError for anything else (a typo must not pass as
    "off")."""
    word = raw.strip().lower()
    if word in _TRUE:
        return True
    if word in _FALSE:
        return False
    raise ValueError(raw)
