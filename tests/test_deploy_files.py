"""The deployment files say what is true and work where they claim to.

- deploy/haproxy.cfg passes ``haproxy -c`` as shipped and with its TLS frontend on, and,
  run for real, sets X-Forwarded-Proto from the scheme the client used, replaces a forged
  X-Forwarded-For, redirects to https:// and sends HSTS when TLS is on;
- docker-compose.yml reads on Compose v1 and v2 (no top-level ``name:``), and its open-file
  limits start on a host whose hard ``nofile`` limit is 20,000 while holding HAProxy's
  ``maxconn``;
- the Dockerfile copies only what exists and what .dockerignore lets into the context, the
  context holds everything pyproject.toml builds from, and no layer is removed later;
- no text says a shutdown closes WebSockets with 1001: the code sends 1012.
"""

from __future__ import annotations

import contextlib
import http.client
import http.server
import json
import os
import re
import shutil
import signal
import ssl
import subprocess
import threading
import time
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from server.close_codes import CloseCode
from tests.support.redis_server import free_port

ROOT = Path(__file__).resolve().parents[1]
HAPROXY_CFG = ROOT / "deploy" / "haproxy.cfg"
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
DOCKERIGNORE = ROOT / ".dockerignore"

HOST_NOFILE = 20_000  # a common hard limit the defaults must start under
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


def global_maxconn() -> int:
    text = HAPROXY_CFG.read_text()
    section = re.search(r"^global\n(.*?)^\S", text, re.MULTILINE | re.DOTALL)
    assert section is not None, "haproxy.cfg has no global section"
    found = re.search(r"^\s+maxconn\s+(\d+)\s*$", section.group(1), re.MULTILINE)
    assert found is not None, "haproxy.cfg sets no global maxconn (HAProxy would size it)"
    return int(found.group(1))


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


# -- docker-compose.yml --------------------------------------------------------------------


def compose() -> dict[str, Any]:
    loaded = yaml.safe_load(COMPOSE.read_text())
    assert isinstance(loaded, dict)
    return loaded


def nofile_limits(service: dict[str, Any]) -> list[int]:
    nofile = service.get("ulimits", {}).get("nofile")
    if nofile is None:
        return []
    if isinstance(nofile, dict):
        return [int(nofile["soft"]), int(nofile["hard"])]
    return [int(nofile)]


def test_compose_file_reads_on_compose_v1_and_v2() -> None:
    data = compose()
    # Compose v1 (1.27+) reads the Compose Specification but refuses a top-level "name:";
    # v2 warns that "version:" is obsolete.
    assert "name" not in data
    assert "version" not in data
    assert set(data) <= {"services", "volumes", "networks", "configs", "secrets"}
    assert {"redis", "app", "lb"} <= set(data["services"])


def test_compose_open_file_limits_fit_a_host_limit_of_20000() -> None:
    services = compose()["services"]
    for name, service in services.items():
        for limit in nofile_limits(service):
            assert limit <= HOST_NOFILE, f"{name}: nofile {limit} fails on most hosts"
    lb = nofile_limits(services["lb"])
    assert lb, "the load balancer needs an explicit nofile limit"
    # Two descriptors per proxied connection, plus listeners, checks and DNS.
    assert 2 * global_maxconn() + 256 <= min(lb), "haproxy.cfg maxconn outgrows lb's nofile"


def test_compose_mounts_existing_files() -> None:
    for service in compose()["services"].values():
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("./"):
                assert (ROOT / source).exists(), f"compose mounts missing {source}"


# -- Dockerfile and .dockerignore ----------------------------------------------------------


def instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) of the Dockerfile, continuation lines joined."""
    joined = re.sub(r"\\\n", " ", DOCKERFILE.read_text())
    found = []
    for line in joined.splitlines():
        stripped = line.strip()
        if stripped and not stripped.startswith("#"):
            word, _, rest = stripped.partition(" ")
            found.append((word.upper(), rest.strip()))
    return found


def _glob_regex(pattern: str) -> re.Pattern[str]:
    parts = []
    for token in re.split(r"(\*\*|\*|\?)", pattern.strip("/")):
        parts.append({"**": ".*", "*": "[^/]*", "?": "[^/]"}.get(token, re.escape(token)))
    return re.compile("".join(parts) + r"\Z")


def in_context(relative: str) -> bool:
    """Whether .dockerignore lets ``relative`` into the build context (last match wins;
    a pattern matching a folder matches everything in it)."""
    rules = []
    for raw in DOCKERIGNORE.read_text().splitlines():
        line = raw.strip()
        if line and not line.startswith("#"):
            keep = line.startswith("!")
            rules.append((keep, _glob_regex(line.lstrip("!"))))
    parts = Path(relative).parts
    prefixes = ["/".join(parts[: i + 1]) for i in range(len(parts))]
    included = True
    for keep, regex in rules:
        if any(regex.match(prefix) for prefix in prefixes):
            included = keep
    return included


def copies() -> list[tuple[bool, list[str], str]]:
    """(from the context?, sources, destination) of every COPY and ADD."""
    found = []
    for word, rest in instructions():
        if word in {"COPY", "ADD"}:
            args = rest.split()
            flags = [a for a in args if a.startswith("--")]
            paths = [a for a in args if not a.startswith("--")]
            from_context = not any(flag.startswith("--from=") for flag in flags)
            found.append((from_context, paths[:-1], paths[-1]))
    return found


def test_dockerfile_copies_only_what_the_context_holds() -> None:
    for from_context, sources, _ in copies():
        if not from_context:
            continue
        for source in sources:
            if source == ".":
                continue
            assert not any(ch in source for ch in "*?["), f"COPY {source}: name it exactly"
            assert (ROOT / source).exists(), f"COPY {source}: no such file"
            assert in_context(source), f"COPY {source}: .dockerignore leaves it out"


def test_build_context_holds_what_pyproject_builds_from() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    readme = project["project"]["readme"]
    files = [readme if isinstance(readme, str) else readme["file"]]
    for pattern in project["project"].get("license-files", []):
        files += [str(path.relative_to(ROOT)) for path in ROOT.glob(pattern)]
    packages = project.get("tool", {}).get("setuptools", {}).get("packages", {})
    if isinstance(packages, dict):  # [tool.setuptools.packages.find] include = ["core*", ...]
        patterns = packages.get("find", {}).get("include", [])
    else:  # packages = ["core", "core.ai", ...]
        patterns = list(packages)
    folders = {
        path.name
        for pattern in patterns
        for path in ROOT.glob(pattern.split(".")[0])
        if path.is_dir() and (path / "__init__.py").exists()
    }
    assert {"core", "rooms", "server"} <= folders
    named = {source for from_context, sources, _ in copies() if from_context for source in sources}
    for name in sorted(folders) + files:
        assert in_context(name), f"pyproject.toml needs {name}; .dockerignore leaves it out"
        assert "." in named or name in named, f"pyproject.toml needs {name}; no COPY brings it"
    for name in ("tests", ".git", ".venv", "artifacts", "docs", "deploy"):
        assert not in_context(name), f"{name} should stay out of the build context"
    assert "tictactoe" in project["project"]["scripts"]
    entry = dict(instructions())["ENTRYPOINT"]
    assert json.loads(entry)[:2] == ["tictactoe", "serve"]


def test_dockerfile_has_no_dead_layers_and_runs_unprivileged() -> None:
    copied: list[str] = []  # destinations copied in the current stage so far
    final: list[tuple[str, str]] = []
    for word, rest in instructions():
        if word == "FROM":
            copied, final = [], []
        final.append((word, rest))
        if word in {"COPY", "ADD"}:
            copied.append(rest.split()[-1])
        elif word == "RUN":
            for dest in copied:
                assert not re.search(rf"\brm\b[^&;|]*\s{re.escape(dest)}", rest), (
                    f"RUN removes {dest}, copied by an earlier layer that stays in the image"
                )
    users = [rest for word, rest in final if word == "USER"]
    assert users and users[-1] not in {"root", "0"}, "the image must not run as root"
    assert any(word == "HEALTHCHECK" and "/healthz" in rest for word, rest in final)
    assert ("STOPSIGNAL", "SIGTERM") in final


# -- the shutdown close code -----------------------------------------------------------------

SHUTDOWN_WORDS = re.compile(r"shut|stop|restart|sigterm|sigint|graceful|deploy", re.IGNORECASE)


def text_files() -> Iterator[Path]:
    yield ROOT / "README.md"
    yield DOCKERFILE
    yield COMPOSE
    yield from sorted((ROOT / "docs").rglob("*.md"))
    yield from sorted(p for p in (ROOT / "deploy").rglob("*") if p.is_file())
    for folder in ("server", "rooms", "static"):
        for suffix in ("*.py", "*.js", "*.html", "*.md"):
            yield from sorted((ROOT / folder).rglob(suffix))


def test_no_text_says_shutdown_closes_with_1001() -> None:
    assert int(CloseCode.SERVICE_RESTART) == 1012
    wrong = []
    for path in text_files():
        lines = path.read_text(encoding="utf-8").splitlines()
        for number, line in enumerate(lines):
            if not re.search(r"\b1001\b", line):
                continue
            window = " ".join(lines[max(0, number - 1) : number + 2])
            if SHUTDOWN_WORDS.search(window):
                wrong.append(f"{path.relative_to(ROOT)}:{number + 1}: {line.strip()}")
    assert not wrong, "shutdown closes WebSockets with 1012, not 1001:\n" + "\n".join(wrong)


def test_protocol_documents_1012_for_shutdown() -> None:
    table = (ROOT / "docs" / "protocol.md").read_text()
    row = next((line for line in table.splitlines() if line.startswith("| 1012 |")), "")
    assert "shutting down" in row
