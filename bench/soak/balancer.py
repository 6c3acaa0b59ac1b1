"""The soak's HAProxy: the deployment's room affinity in front of its servers (``--affinity``).

One ``haproxy`` process on a loopback port, configured by bench.load.haproxy with
``failover`` (the deployment's balancing rules, its ``/readyz`` checks, retries and
redispatch; a stats socket; the ``X-Served-By`` header), in front of the soak's
``ServerNode``s, whose ports stay the same across restarts, so the configuration never
changes. It is never a fault's victim. ``wait_all_up`` is how a fault knows the ring is
whole again: every server ``UP`` in every backend, as HAProxy's checks see it (a
restarted server is ready before the checks say so).
"""

from __future__ import annotations

import contextlib
import csv
import os
import signal
import socket
import subprocess
import time
from collections.abc import Sequence
from pathlib import Path

from bench.load.haproxy import Failover, haproxy_binary, haproxy_config
from bench.load.launch import free_port

from .processes import STOP_TIMEOUT, StartFailed, tail, wait_exit

__all__ = ["BalancerNode"]

MAXCONN = 4000
"""Far above what a soak opens (games × (2 + spectators) sockets, each twice in HAProxy)."""
UP_TIMEOUT = 60.0


class BalancerNode:
    def __init__(self, directory: Path, ports: Sequence[int]) -> None:
        self.directory = directory
        self.ports = list(ports)
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def log(self) -> Path:
        return self.directory / "haproxy.log"

    @property
    def stats_socket(self) -> Path:
        return self.directory / "haproxy.sock"

    def start(self) -> None:
        binary = haproxy_binary()
        if binary is None:
            raise StartFailed("--affinity needs HAProxy (apt-get install haproxy)")
        self.directory.mkdir(parents=True, exist_ok=True)
        config = self.directory / "haproxy.cfg"
        config.write_text(
            haproxy_config(
                self.port, self.ports, maxconn=MAXCONN, failover=Failover(self.stats_socket)
            )
        )
        with self.log.open("ab") as output:
            self.process = subprocess.Popen(
                [binary, "-db", "-f", str(config)], stdout=output, stderr=subprocess.STDOUT
            )
        self.wait_all_up()

    def states(self) -> dict[tuple[str, str], str]:
        """Each (backend, server)'s status as HAProxy's checks have it (``UP``, ``DOWN``,
        ``UP 1/2`` going down, ``DOWN 1/2`` coming up)."""
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as stats:
            stats.settimeout(5)
            stats.connect(str(self.stats_socket))
            stats.sendall(b"show stat\n")
            answer = b""
            while chunk := stats.recv(65536):
                answer += chunk
        rows = csv.DictReader(answer.decode().lstrip("# ").splitlines())
        return {
            (row["pxname"], row["svname"]): row["status"]
            for row in rows
            if row.get("svname") not in (None, "FRONTEND", "BACKEND")
        }

    def wait_all_up(self, timeout: float = UP_TIMEOUT) -> None:
        """Until every server is ``UP`` in every backend (bounded)."""
        deadline = time.monotonic() + timeout
        states: dict[tuple[str, str], str] = {}
        while True:
            if self.process is None or self.process.poll() is not None:
                raise StartFailed(f"haproxy exited:\n{tail(self.log)}")
            with contextlib.suppress(OSError):
                states = self.states()
                if states and all(status == "UP" for status in states.values()):
                    return
            if time.monotonic() > deadline:
                down = ", ".join(f"{b}/{s} {st}" for (b, s), st in states.items() if st != "UP")
                raise StartFailed(f"haproxy: not every server UP within {timeout:g} s: {down}")
            time.sleep(0.1)

    def stop(self) -> None:
        if self.process is None or self.process.poll() is not None:
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(self.process.pid, signal.SIGTERM)
        wait_exit(self.process, STOP_TIMEOUT)
        self.process = None
