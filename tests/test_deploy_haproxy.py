"""deploy/haproxy.cfg passes ``haproxy -c`` as shipped and with its TLS frontend on, and, run
for real, sets X-Forwarded-Proto from the scheme the client used, replaces a forged
X-Forwarded-For, redirects to https:// and sends HSTS when TLS is on, logs every request,
refuses an address past its connection or request limits (429), and never serves /metrics."""

from __future__ import annotations

import contextlib
import http.client
import http.server
import json
import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.deploy import (
    HAPROXY_CFG,
    global_maxconn,
)
from tests.support.redis_server import free_port
from tests.support.waiting import eventually_sync

HAPROXY = shutil.which("haproxy")
needs_haproxy = pytest.mark.skipif(
    HAPROXY is None, reason="no haproxy binary (./run test installs Debian's haproxy)"
)
# The only complaint allowed outside Docker: the service name "app" resolves only in there.
UNRESOLVED_APP = re.compile(r"could not resolve address 'app'")


# -- haproxy.cfg ---------------------------------------------------------------------------


def haproxy_check(config: Path, env: dict[str, str] | None = None) -> str:
    assert HAPROXY is not None
    done = subprocess.run(
        [HAPROXY, "-c", "-f", str(config)],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, **(env or {})},
        check=False,
    )
    output = done.stdout + done.stderr
    assert done.returncode == 0, output
    complaints = [
        line
        for line in output.splitlines()
        if ("[WARNING]" in line or "[ALERT]" in line) and not UNRESOLVED_APP.search(line)
    ]
    assert not complaints, output
    return output


@pytest.fixture
def tls_cert(tmp_path: Path) -> Path:
    """A throwaway self-signed certificate and its key in one PEM, as HAProxy reads them."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("no openssl binary to make a test certificate")
    key, cert, pem = tmp_path / "key.pem", tmp_path / "cert.pem", tmp_path / "site.pem"
    request = ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2"]
    subprocess.run(
        [openssl, *request, "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
        capture_output=True,
        timeout=60,
        check=True,
    )
    pem.write_text(cert.read_text() + key.read_text())
    return pem


@pytest.mark.process
@needs_haproxy
def test_haproxy_cfg_passes_haproxy_check_as_shipped() -> None:
    haproxy_check(HAPROXY_CFG)


@pytest.mark.process
@needs_haproxy
def test_haproxy_cfg_passes_haproxy_check_with_tls(tls_cert: Path) -> None:
    haproxy_check(HAPROXY_CFG, {"TLS_CERT": str(tls_cert)})


def test_haproxy_cfg_tls_frontend_forwards_the_real_scheme() -> None:
    text = HAPROXY_CFG.read_text()
    assert re.search(r'^\s+bind :443 ssl crt "\$\{TLS_CERT\}" alpn http/1\.1$', text, re.M)
    assert "http-request redirect scheme https" in text
    assert "Strict-Transport-Security" in text
    proto = [line.strip() for line in text.splitlines() if "X-Forwarded-Proto" in line]
    setters = [line for line in proto if line.startswith("http-request set-header")]
    assert setters == [
        "http-request set-header X-Forwarded-Proto https if { ssl_fc }",
        "http-request set-header X-Forwarded-Proto http unless { ssl_fc }",
    ]
    assert re.search(r"^\s+timeout tunnel\s+\S+", text, re.M), "WebSockets need a tunnel timeout"


class _Echo(http.server.BaseHTTPRequestHandler):
    """Answers every GET with the request's headers (the health checks get 200 too)."""

    def do_GET(self) -> None:
        body = json.dumps({name.lower(): value for name, value in self.headers.items()})
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@contextlib.contextmanager
def echo_server() -> Iterator[int]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield int(server.server_address[1])
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=10)


@contextlib.contextmanager
def running_haproxy(
    directory: Path, backend: int, tls_cert: Path | None
) -> Iterator[tuple[int, int]]:
    """deploy/haproxy.cfg on loopback ports in front of one server; (http, https) ports."""
    assert HAPROXY is not None
    http_port, https_port = free_port(), free_port()
    text = HAPROXY_CFG.read_text()
    for old, new in (
        ("    bind :80\n", f"    bind 127.0.0.1:{http_port}\n"),
        ("    bind :443 ", f"    bind 127.0.0.1:{https_port} "),
        ("    server-template app 10 app:8000\n", f"    server app1 127.0.0.1:{backend}\n"),
        (f"    maxconn {global_maxconn()}\n", "    maxconn 500\n"),  # any test shell's limit
    ):
        assert old in text, f"haproxy.cfg changed: no {old!r}"
        text = text.replace(old, new)
    config, log_path = directory / "haproxy.cfg", directory / "haproxy.log"
    config.write_text(text)
    env = {k: v for k, v in os.environ.items() if k != "TLS_CERT"}
    if tls_cert is not None:
        env["TLS_CERT"] = str(tls_cert)
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            [HAPROXY, "-db", "-f", str(config)], stdout=log, stderr=subprocess.STDOUT, env=env
        )
    try:
        deadline = time.monotonic() + 20
        while True:
            assert process.poll() is None, f"haproxy exited: {log_path.read_text()}"
            with contextlib.suppress(OSError, http.client.HTTPException):
                status, _, _ = fetch(http_port, tls=False)
                if status in (200, 301):
                    break
            assert time.monotonic() < deadline, f"haproxy never answered: {log_path.read_text()}"
            time.sleep(0.05)
        yield http_port, https_port
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=10)


def fetch(
    port: int, *, tls: bool, headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], dict[str, str]]:
    """(status, response headers, request headers the server saw) of a GET through HAProxy."""
    connection: http.client.HTTPConnection
    if tls:
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        connection = http.client.HTTPSConnection("127.0.0.1", port, timeout=5, context=context)
    else:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        connection.request("GET", "/api/rooms", headers=headers or {})
        response = connection.getresponse()
        body = response.read()
        answer = {name.lower(): value for name, value in response.getheaders()}
        seen = json.loads(body) if response.status == 200 else {}
        return response.status, answer, seen
    finally:
        connection.close()


FORGED = {"X-Forwarded-Proto": "wss", "X-Forwarded-For": "203.0.113.9"}


@pytest.mark.process
@needs_haproxy
def test_haproxy_plain_http_forwards_http(tmp_path: Path) -> None:
    with echo_server() as backend, running_haproxy(tmp_path, backend, None) as (plain, _):
        status, answer, seen = fetch(plain, tls=False, headers=FORGED)
    assert status == 200
    assert seen["x-forwarded-proto"] == "http"
    assert seen["x-forwarded-for"] == "127.0.0.1"
    assert "strict-transport-security" not in answer


@pytest.mark.process
@needs_haproxy
def test_haproxy_tls_forwards_https_redirects_and_sends_hsts(
    tmp_path: Path, tls_cert: Path
) -> None:
    with echo_server() as backend, running_haproxy(tmp_path, backend, tls_cert) as ports:
        plain, secure = ports
        status, answer, _ = fetch(plain, tls=False, headers=FORGED)
        assert status == 301
        assert answer["location"].startswith("https://")
        status, answer, seen = fetch(secure, tls=True, headers=FORGED)
    assert status == 200
    assert seen["x-forwarded-proto"] == "https"
    assert seen["x-forwarded-for"] == "127.0.0.1"
    assert answer["strict-transport-security"].startswith("max-age=")


# -- access log, per-address limits, /metrics kept in --------------------------------------


def shipped_limit(pattern: str) -> int:
    """A limit of the frontend's stick-table rules, as shipped (``sc0_conn_cur gt N``)."""
    found = re.search(pattern + r" gt (\d+)", HAPROXY_CFG.read_text())
    assert found is not None, f"haproxy.cfg has no {pattern} limit"
    return int(found.group(1))


def get(port: int, path: str, connection: http.client.HTTPConnection | None = None) -> int:
    """The status of ``GET path`` (on ``connection``, kept alive, or a new one)."""
    own = connection or http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    try:
        own.request("GET", path)
        response = own.getresponse()
        response.read()
        return response.status
    finally:
        if connection is None:
            own.close()


@pytest.mark.process
@needs_haproxy
def test_haproxy_refuses_past_the_request_rate_and_logs_each_request(tmp_path: Path) -> None:
    limit = shipped_limit(r"sc0_http_req_rate")
    statuses = []
    with echo_server() as backend, running_haproxy(tmp_path, backend, None) as (plain, _):
        connection = http.client.HTTPConnection("127.0.0.1", plain, timeout=5)
        try:
            # running_haproxy's readiness probe made requests too: count from the log
            for _ in range(limit + 5):
                try:
                    statuses.append(get(plain, "/api/rooms", connection))
                except (http.client.HTTPException, OSError):  # a 429 closed it: a new one
                    connection.close()
                    connection = http.client.HTTPConnection("127.0.0.1", plain, timeout=5)
                    statuses.append(get(plain, "/api/rooms", connection))
        finally:
            connection.close()

        def logged() -> list[str] | None:
            text = (tmp_path / "haproxy.log").read_text(errors="replace")
            lines = [line for line in text.splitlines() if '"GET /api/rooms HTTP/1.1"' in line]
            return lines if len(lines) >= limit + 5 else None

        lines = eventually_sync(logged, "a log line for every request")
    assert statuses.count(429) >= 5, statuses
    first = statuses.index(429)
    assert first <= limit and set(statuses[:first]) == {200}
    assert all(status == 429 for status in statuses[first:])  # refused while past the rate
    assert len(lines) >= limit + 5  # every request has its line, refused ones too
    refused = [line for line in lines if " 429 " in line]
    assert len(refused) == statuses.count(429)
    # option httplog: the client's address, the frontend, backend/server, timers, status
    assert all(line.split()[0].startswith("127.0.0.1:") for line in lines)
    assert any(" web app/app1 " in line and " 200 " in line for line in lines)


@pytest.mark.process
@needs_haproxy
def test_haproxy_refuses_connections_past_the_per_address_limit(tmp_path: Path) -> None:
    limit = shipped_limit(r"sc0_conn_cur")
    with echo_server() as backend, running_haproxy(tmp_path, backend, None) as (plain, _):
        held = []
        try:
            for _ in range(limit):
                sock = socket.create_connection(("127.0.0.1", plain), timeout=5)
                held.append(sock)
            time.sleep(0.2)  # every one accepted and tracked
            held[0].sendall(b"GET /api/rooms HTTP/1.1\r\nHost: x\r\n\r\n")
            assert b" 200 OK" in held[0].recv(100)  # the last one allowed
            answer = b""
            # refused: reset at once (even the connect, when HAProxy is quick), unanswered
            with contextlib.suppress(ConnectionResetError, BrokenPipeError):
                one_more = socket.create_connection(("127.0.0.1", plain), timeout=5)
                try:
                    one_more.sendall(b"GET /api/rooms HTTP/1.1\r\nHost: x\r\n\r\n")
                    answer = one_more.recv(100)
                finally:
                    one_more.close()
            assert answer == b"", answer  # refused: closed without an answer
            held.pop().close()  # one fewer open: the address is served again
            time.sleep(0.2)
            assert get(plain, "/api/rooms") == 200
        finally:
            for sock in held:
                sock.close()


@pytest.mark.process
@needs_haproxy
@pytest.mark.parametrize("path", ["/metrics", "/%6detrics", "//metrics", "/metrics?x=1"])
def test_haproxy_never_serves_metrics(tmp_path: Path, path: str) -> None:
    with echo_server() as backend, running_haproxy(tmp_path, backend, None) as (plain, _):
        assert get(plain, path) == 404
        assert get(plain, "/api/rooms") == 200


@pytest.mark.process
@needs_haproxy
def test_haproxy_refuses_connections_past_the_per_address_rate(tmp_path: Path) -> None:
    limit = shipped_limit(r"sc0_conn_rate")
    answered = []
    with echo_server() as backend, running_haproxy(tmp_path, backend, None) as (plain, _):
        for _ in range(limit + 5):  # one request a connection, each closed after
            answer = b""
            with contextlib.suppress(ConnectionResetError, BrokenPipeError):
                sock = socket.create_connection(("127.0.0.1", plain), timeout=5)
                try:
                    sock.sendall(b"GET /api/rooms HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    answer = sock.recv(100)
                finally:
                    sock.close()
            answered.append(b" 200 OK" in answer)
    # running_haproxy's readiness probe opened a few connections first
    first_refused = answered.index(False)
    assert limit - 10 <= first_refused <= limit, answered
    assert not any(answered[first_refused:]), answered  # refused while past the rate
