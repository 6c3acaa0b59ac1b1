"""Optional observability beyond Prometheus, off unless configured: OpenTelemetry traces
(``tracing``: a span per HTTP request and per room command, exported over OTLP/HTTP, their
ids in the log lines) and error reports to Sentry (``errors``). Each needs its extra
(``pip install 'tictactoe-server[otel]'``, ``[sentry]``) and is imported only when on.
docs/operations.md ("Traces", "Error reports")."""

from __future__ import annotations

from .setup import Telemetry
from .tracing import TracingMiddleware, command_failed, command_type, room_command

__all__ = ["Telemetry", "TracingMiddleware", "command_failed", "command_type", "room_command"]
