"""``Telemetry(settings)``: what a worker turns on besides Prometheus, started and stopped
by the app's lifespan. Built in ``create_app``, so a setting asking for an extra that is not
installed fails the start at once with a SettingsError naming it."""

from __future__ import annotations

import importlib.util
from urllib.parse import urlsplit

from ..errors import SettingsError
from ..metrics import version
from ..settings import Settings
from . import errors, tracing

__all__ = ["Telemetry"]

_EXTRAS = {
    "otlp_endpoint": ("otel", "opentelemetry.exporter.otlp.proto.http"),
    "sentry_dsn": ("sentry", "sentry_sdk"),
}


def _installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ModuleNotFoundError:  # a parent package is missing
        return False


class Telemetry:
    def __init__(self, settings: Settings) -> None:
        for name, (extra, module) in _EXTRAS.items():
            if getattr(settings, name) and not _installed(module):
                raise SettingsError(
                    name,
                    f"needs the {extra} extra: pip install 'tictactoe-server[{extra}]'",
                )
        self.settings = settings
        self._started = False

    def start(self) -> None:
        settings = self.settings
        if settings.sentry_dsn:
            errors.start(settings.sentry_dsn, version(), urlsplit(settings.store_url).scheme)
        if settings.otlp_endpoint:
            tracing.start(settings.otlp_endpoint, version())
        self._started = True

    def close(self) -> None:
        if not self._started:
            return
        self._started = False
        if self.settings.otlp_endpoint:
            tracing.stop()
        if self.settings.sentry_dsn:
            errors.stop()
