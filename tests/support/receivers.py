"""Real local stand-ins for what the server's telemetry talks to, each a small HTTP server
on a loopback port in a thread of the test process:

- ``OtlpReceiver``: an OTLP/HTTP trace collector. It answers ``POST /v1/traces`` as a
  collector does and decodes each ``ExportTraceServiceRequest`` (protobuf, gzip or not)
  with opentelemetry-proto, the collector's own message definitions; ``spans`` lists
  what arrived.
- ``SentryReceiver``: a Sentry ingest endpoint for the DSN ``http://KEY@127.0.0.1:PORT/ID``.
  It answers ``POST /api/ID/envelope/`` and parses each envelope (a JSON header line, then
  an item header and payload per item); ``events`` lists the error events that arrived.
"""

from __future__ import annotations

import gzip
import http.server
import json
import threading
import zlib
from dataclasses import dataclass, field
from typing import Any, Self

__all__ = ["OtlpReceiver", "ReceivedSpan", "SentryReceiver"]


def _body(handler: http.server.BaseHTTPRequestHandler) -> bytes:
    data = handler.rfile.read(int(handler.headers.get("Content-Length") or 0))
    encoding = (handler.headers.get("Content-Encoding") or "").lower()
    if encoding == "gzip":
        return gzip.decompress(data)
    if encoding == "deflate":
        return zlib.decompress(data)
    if encoding == "br":
        import brotli  # type: ignore[import-not-found]  # only if the sender had it

        return bytes(brotli.decompress(data))
    assert encoding in {"", "identity"}, f"unexpected Content-Encoding {encoding!r}"
    return data


class _Receiver:
    """A ThreadingHTTPServer on a free loopback port, with a lock over what it received."""

    def __init__(self) -> None:
        owner = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                status, body, content_type = owner.received(self.path, _body(self))
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self.lock = threading.Lock()
        self.paths: list[str] = []
        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    @property
    def port(self) -> int:
        return int(self._server.server_address[1])

    def received(self, path: str, body: bytes) -> tuple[int, bytes, str]:
        raise NotImplementedError

    def __enter__(self) -> Self:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)


@dataclass(frozen=True, slots=True)
class ReceivedSpan:
    name: str
    trace_id: str
    span_id: str
    parent_id: str
    kind: int
    attributes: dict[str, Any]
    status: int
    """0 unset, 1 ok, 2 error (opentelemetry.proto's Status.StatusCode)."""
    resource: dict[str, Any] = field(default_factory=dict)


def _value(any_value: Any) -> Any:
    kind = any_value.WhichOneof("value")
    return getattr(any_value, kind) if kind else None


class OtlpReceiver(_Receiver):
    def __init__(self) -> None:
        super().__init__()
        self.spans: list[ReceivedSpan] = []

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def received(self, path: str, body: bytes) -> tuple[int, bytes, str]:
        from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import (
            ExportTraceServiceRequest,
            ExportTraceServiceResponse,
        )

        with self.lock:
            self.paths.append(path)
        if path != "/v1/traces":
            return 404, b"", "text/plain"
        request = ExportTraceServiceRequest()
        request.ParseFromString(body)
        found = []
        for resource_spans in request.resource_spans:
            resource = {a.key: _value(a.value) for a in resource_spans.resource.attributes}
            for scope_spans in resource_spans.scope_spans:
                for span in scope_spans.spans:
                    found.append(
                        ReceivedSpan(
                            name=span.name,
                            trace_id=span.trace_id.hex(),
                            span_id=span.span_id.hex(),
                            parent_id=span.parent_span_id.hex(),
                            kind=span.kind,
                            attributes={a.key: _value(a.value) for a in span.attributes},
                            status=span.status.code,
                            resource=resource,
                        )
                    )
        with self.lock:
            self.spans.extend(found)
        answer = ExportTraceServiceResponse().SerializeToString()
        return 200, answer, "application/x-protobuf"

    def named(self, name: str) -> list[ReceivedSpan]:
        with self.lock:
            return [span for span in self.spans if span.name == name]


class SentryReceiver(_Receiver):
    KEY = "0123456789abcdef0123456789abcdef"
    PROJECT = "42"

    def __init__(self) -> None:
        super().__init__()
        self.envelopes: list[tuple[dict[str, Any], list[tuple[dict[str, Any], bytes]]]] = []

    @property
    def dsn(self) -> str:
        return f"http://{self.KEY}@127.0.0.1:{self.port}/{self.PROJECT}"

    def received(self, path: str, body: bytes) -> tuple[int, bytes, str]:
        with self.lock:
            self.paths.append(path)
        if path.split("?", 1)[0] != f"/api/{self.PROJECT}/envelope/":
            return 404, b"", "text/plain"
        header_line, _, rest = body.partition(b"\n")
        items = []
        while rest.strip():
            item_line, _, rest = rest.partition(b"\n")
            item = json.loads(item_line)
            if "length" in item:
                payload, rest = rest[: item["length"]], rest[item["length"] + 1 :]
            else:
                payload, _, rest = rest.partition(b"\n")
            items.append((item, payload))
        with self.lock:
            self.envelopes.append((json.loads(header_line), items))
        return 200, b"{}", "application/json"

    @property
    def events(self) -> list[dict[str, Any]]:
        """The error events received (the envelopes' ``event`` items), in order."""
        with self.lock:
            return [
                json.loads(payload)
                for _, items in self.envelopes
                for item, payload in items
                if item.get("type") == "event"
            ]
