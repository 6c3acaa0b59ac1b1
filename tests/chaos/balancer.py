"""HAProxy with the deployment's own configuration (deploy/haproxy.cfg), for tests.

The file is used as shipped except for where it listens and which servers it balances:
``bind :80`` becomes a free loopback port, the DNS-discovered ``server-template`` of
docker-compose becomes one ``server`` line per test server process (in each backend), and
``maxconn`` is lowered to what a test shell's open-file limit allows; every answer also
names the backend and server that gave it (``X-Served-By: rooms/app1``), for the tests to
see where a request or a socket landed. Timeouts, health checks on /readyz, retries and
redispatch, the balancing rules (room affinity) and the headers are the deployment's. The
process runs in the foreground (``-db``) and is stopped by its pid.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
from pathlib import Path

import httpx

from tests.support.redis_server import free_port
from tests.support.server_process import ROOT, WAIT, LocalProcess, ServerProcess
from tests.support.waiting import eventually_sync

__all__ = ["HAPROXY", "SERVED_BY", "LoadBalancer"]

HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
CONFIG = ROOT / "deploy" / "haproxy.cfg"
SERVED_BY = "X-Served-By"
"""The header the test's copy adds to every answer: ``<backend>/<server>``, the server
being ``app<N>`` for the N-th test server (1-based)."""


def local_config(port: int, servers: list[ServerProcess]) -> str:
    text = CONFIG.read_text()
    bind, template = "    bind :80\n", "    server-template app 10 app:8000\n"
    maxconn = "    maxconn 7500\n"  # may need a higher open-file limit than a test shell has
    default = "    default_backend app\n"
    assert bind in text and template in text and maxconn in text, "haproxy.cfg changed"
    assert default in text, "haproxy.cfg changed"
    lines = "".join(
        f"    server app{index} 127.0.0.1:{server.port}\n"
        for index, server in enumerate(servers, start=1)
    )
    text = text.replace(maxconn, "    maxconn 1000\n")
    text = text.replace(default, f"    http-response set-header {SERVED_BY} %b/%s\n{default}")
    return text.replace(bind, f"    bind 127.0.0.1:{port}\n").replace(template, lines)


class LoadBalancer(LocalProcess):
    """Answers like a server (``url``, ``ws``, ``alive``), so clients can use either."""

    def __init__(self, servers: list[ServerProcess], directory: Path) -> None:
        self.port = free_port()
        directory.mkdir(parents=True, exist_ok=True)
        self.config = directory / "haproxy.cfg"
        self.config.write_text(local_config(self.port, servers))
        self.log_path = directory / "haproxy.log"
        with self.log_path.open("wb") as log:
            self.process = subprocess.Popen(
                [HAPROXY, "-db", "-f", str(self.config)],
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def __repr__(self) -> str:
        return f"<haproxy :{self.port} pid {self.process.pid}>"

    def wait_ready(self) -> None:
        """Until a request through it reaches a ready server (its checks have run)."""

        def passed() -> bool:
            if not self.alive:
                raise AssertionError(f"haproxy exited: {self.log_path.read_text()[-2000:]}")
            return httpx.get(f"{self.url}/readyz", timeout=5).status_code == 200

        eventually_sync(
            passed,
            f"a request through haproxy (log: {self.log_path})",
            timeout=WAIT,
            interval=0.05,
            ignoring=(httpx.HTTPError,),
        )

    def stop(self) -> None:
        if self.alive:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
