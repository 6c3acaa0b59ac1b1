"""HAProxy terminating TLS with HTTP/2 in front of a server, as a deployment would put it.

Browsers speak HTTP/2 only over TLS; over HTTP/1.1 they open at most six connections to a
host, so the client's ~60 files cost about ten round trips on a long link, while HTTP/2
asks for all of them at once on one connection. A throwaway self-signed certificate
(``openssl``) is made in a temporary directory; the browser is told to accept it.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from bench.load.launch import free_port

__all__ = ["TlsFront"]

_CONFIG = """\
global
    maxconn 500
defaults
    mode http
    timeout connect 5s
    timeout client 60s
    timeout server 60s
    timeout tunnel 1h
frontend web
    bind 127.0.0.1:{port} ssl crt {pem} alpn h2,http/1.1
    default_backend app
backend app
    server app 127.0.0.1:{target}
"""


class TlsFront:
    """``with TlsFront(8000) as front:`` then ``https://127.0.0.1:{front.port}``."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.port = 0
        self._dir: tempfile.TemporaryDirectory[str] | None = None
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> TlsFront:
        haproxy, openssl = shutil.which("haproxy"), shutil.which("openssl")
        if haproxy is None or openssl is None:
            raise RuntimeError("the HTTP/2 front needs haproxy and openssl on PATH")
        self._dir = tempfile.TemporaryDirectory(prefix="tls-front-")
        root = Path(self._dir.name)
        key, cert, pem = root / "key.pem", root / "cert.pem", root / "site.pem"
        subprocess.run(
            [
                *(openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1"),
                *("-subj", "/CN=127.0.0.1", "-keyout", str(key), "-out", str(cert)),
            ],
            check=True,
            capture_output=True,
            timeout=60,
        )
        pem.write_bytes(cert.read_bytes() + key.read_bytes())
        self.port = free_port()
        config = root / "haproxy.cfg"
        config.write_text(_CONFIG.format(port=self.port, pem=pem, target=self.target_port))
        self._process = subprocess.Popen(
            [haproxy, "-db", "-f", str(config)],
            stdout=subprocess.DEVNULL,
            stderr=(root / "haproxy.log").open("wb"),
        )
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise RuntimeError((root / "haproxy.log").read_text())
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                time.sleep(0.05)
        raise RuntimeError("haproxy did not start listening")

    def __exit__(self, *exc: object) -> None:
        if self._process is not None:
            self._process.terminate()
            try:
                self._process.wait(10)
            except subprocess.TimeoutExpired:
                self._process.kill()
                self._process.wait(10)
        if self._dir is not None:
            self._dir.cleanup()
