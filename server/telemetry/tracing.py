"""OpenTelemetry traces: a span per HTTP request and per room command, sent over OTLP/HTTP.

Off (``start`` never called) every hook here is one check of a class attribute: nothing of
OpenTelemetry is imported. On, the worker has a TracerProvider of its own (the process'
global one is left alone) whose batch processor sends spans to ``<endpoint>/v1/traces``
from a thread, as protobuf. The usual ``OTEL_*`` variables still apply where the SDK reads
them (``OTEL_SERVICE_NAME``, default ``tictactoe-server``; ``OTEL_RESOURCE_ATTRIBUTES``,
``OTEL_BSP_*``, ``OTEL_EXPORTER_OTLP_HEADERS``...).

- HTTP: ``TracingMiddleware`` opens a SERVER span per request, continuing the caller's
  trace when it sent a W3C ``traceparent``, named ``GET /api/rooms/{room_id}`` (the route
  template, as the metrics label it: server.metrics.http) once the router has run.
- Room commands: the WebSocket session opens one span per message it handles
  (``room_command``), named ``room <type>`` (``room move``, ``room join``...) once the
  message parsed (``command_type``), with the room id and the refusal's error code
  (``command_failed``); an internal error marks the span as an error.
- Logs: while a span is current, every log line carries its ``trace_id`` and ``span_id``
  (server.logs.context), so a line and its trace find each other.
"""

from __future__ import annotations

import contextlib
import threading
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from rooms.protocol import ClientMessage

from ..logs.context import use_trace_ids
from ..metrics.edge import message_type
from ..metrics.http import route_template

__all__ = [
    "STOP_WAIT",
    "TracingMiddleware",
    "command_failed",
    "command_type",
    "room_command",
    "start",
    "stop",
]


STOP_WAIT = 2.0
"""Seconds a stopping worker waits for its last spans to be sent."""


class _On:
    """The worker's tracer and provider while traces are on, else None."""

    tracer: Any = None
    provider: Any = None
    trace: Any = None  # the opentelemetry.trace module, imported once


_NOTHING = contextlib.nullcontext()


def start(endpoint: str, version: str) -> None:
    """Send this worker's spans to the OTLP/HTTP collector at ``endpoint`` (its base URL)."""
    from opentelemetry import trace
    from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
    from opentelemetry.sdk.resources import Resource
    from opentelemetry.sdk.trace import TracerProvider
    from opentelemetry.sdk.trace.export import BatchSpanProcessor

    resource = Resource.create({"service.version": version})  # and OTEL_* variables
    if str(resource.attributes.get("service.name", "")).startswith("unknown_service"):
        resource = resource.merge(Resource({"service.name": "tictactoe-server"}))
    provider = TracerProvider(resource=resource)
    exporter = OTLPSpanExporter(endpoint=endpoint.rstrip("/") + "/v1/traces")
    provider.add_span_processor(BatchSpanProcessor(exporter))
    _On.provider, _On.trace = provider, trace
    _On.tracer = provider.get_tracer("tictactoe.server", version)
    use_trace_ids(_current_ids)


def stop() -> None:
    """Send the spans still queued, for 2 s at most, and stop; the hooks are off again.

    The SDK's shutdown exports what is queued with the exporter's retries (up to its
    10-second timeout when the collector does not answer), so it runs in a thread of its
    own that the worker waits for 2 s at most: a dead collector costs a stop 2 s, not 10."""
    provider, _On.provider, _On.tracer, _On.trace = _On.provider, None, None, None
    use_trace_ids(None)
    if provider is not None:
        flushing = threading.Thread(target=provider.shutdown, name="otel-shutdown", daemon=True)
        flushing.start()
        flushing.join(STOP_WAIT)


def _current_ids() -> tuple[str, str] | None:
    trace = _On.trace
    if trace is None:
        return None
    context = trace.get_current_span().get_span_context()
    if not context.is_valid:
        return None
    return trace.format_trace_id(context.trace_id), trace.format_span_id(context.span_id)


def room_command(room_id: str) -> contextlib.AbstractContextManager[Any]:
    """The span of one client message on ``room_id``'s socket (nothing when traces are off)."""
    if _On.tracer is None:
        return _NOTHING
    # no status from an exception: the session answers every failure itself (command_failed)
    return _On.tracer.start_as_current_span(  # type: ignore[no-any-return]
        "room message",
        kind=_On.trace.SpanKind.SERVER,
        attributes={"tictactoe.room_id": room_id},
        record_exception=False,
        set_status_on_exception=False,
    )


def command_type(message: ClientMessage) -> None:
    """The current room command is ``message`` (named by its protocol type)."""
    if _On.tracer is None:
        return
    name = message_type(message)
    span = _On.trace.get_current_span()
    span.update_name(f"room {name}")
    span.set_attribute("tictactoe.message.type", name)


def command_failed(code: str, exc: BaseException | None = None) -> None:
    """The current room command was answered with the error ``code`` (``exc``: an internal
    error, recorded on the span, whose status becomes ERROR)."""
    if _On.tracer is None:
        return
    span = _On.trace.get_current_span()
    span.set_attribute("tictactoe.error.code", code)
    if exc is not None:
        span.record_exception(exc)
        span.set_status(_On.trace.StatusCode.ERROR, code)


class TracingMiddleware:
    """ASGI middleware: a SERVER span per HTTP request while traces are on."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if _On.tracer is None or scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        from opentelemetry import trace
        from opentelemetry.propagate import extract

        headers = {
            bytes(name).decode("latin-1"): bytes(value).decode("latin-1")
            for name, value in scope.get("headers", ())
        }
        method = scope["method"]
        status = 500

        async def send_noting_status(message: Message) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = int(message["status"])
            await send(message)

        with _On.tracer.start_as_current_span(
            method,
            context=extract(headers),
            kind=trace.SpanKind.SERVER,
            attributes={
                "http.request.method": method,
                "url.path": scope["path"],
                "url.scheme": scope.get("scheme", "http"),
            },
        ) as span:
            try:
                await self.app(scope, receive, send_noting_status)
            finally:
                route = route_template(scope)
                span.update_name(f"{method} {route}")
                span.set_attribute("http.route", route)
                span.set_attribute("http.response.status_code", status)
                if status >= 500:
                    span.set_status(trace.StatusCode.ERROR)
