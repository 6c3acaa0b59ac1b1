"""HAProxy in front of the bench's server (or relay) processes: the affinity deployment.

The configuration is the bench's own, minimal one, not deploy/haproxy.cfg: a loopback
port, the processes the bench started (no DNS, no TLS, no health checks: the bench starts
HAProxy once every process answers, and none dies during a run), no logging. Its balancing
rules are deploy/haproxy.cfg's, line for line (``FRONTEND_RULES``, ``ROOMS``, ``CROWD``,
``DEFAULT``; tests/bench/test_bench_affinity.py holds them equal): a room's players' sockets,
page and API hashed on the room id onto a consistent ring, the spectators' path and
everything else spread by open connections. So what a run pays for HAProxy is what the
deployment pays, and its CPU is counted with the servers' (bench.load.measure).
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence

__all__ = ["CROWD", "DEFAULT", "FRONTEND_RULES", "ROOMS", "haproxy_binary", "haproxy_config"]

FRONTEND_RULES = (
    "acl room_path path_reg ^/(ws|r)/[A-Za-z0-9_-]{4,64}$",
    "acl room_api path_reg ^/api/rooms/[A-Za-z0-9_-]{4,64}(/|$)",
    "acl watching path_reg ^/(ws|r)/[A-Za-z0-9_-]{4,64}/watch$",
    "http-request set-var(txn.room) path,field(3,/) if room_path",
    "http-request set-var(txn.room) path,field(4,/) if room_api",
    "use_backend crowd if watching",
    "use_backend rooms if { var(txn.room) -m found }",
    "default_backend app",
)
ROOMS = ("balance hash var(txn.room)", "hash-type consistent")
CROWD = ("balance leastconn",)
DEFAULT = ("balance leastconn",)


def haproxy_binary() -> str | None:
    """Where haproxy is (Debian puts it in /usr/sbin, which a user's PATH may lack)."""
    return shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/usr/local/sbin")


def haproxy_config(port: int, servers: Sequence[int], *, maxconn: int) -> str:
    """The configuration of HAProxy on loopback ``port`` in front of the processes on
    loopback ``servers`` (each a single process: affinity is to a process)."""

    def backend(name: str, rules: Sequence[str]) -> str:
        lines = [f"backend {name}", *(f"    {rule}" for rule in rules)]
        lines += [
            f"    server app{index} 127.0.0.1:{server}"
            for index, server in enumerate(servers, start=1)
        ]
        return "\n".join(lines)

    frontend = "\n".join(
        [
            "frontend web",
            f"    bind 127.0.0.1:{port}",
            *(f"    {rule}" for rule in FRONTEND_RULES),
        ]
    )
    return (
        "\n\n".join(
            [
                f"global\n    maxconn {maxconn}",
                # deploy/haproxy.cfg's timeouts: a WebSocket is a tunnel once upgraded
                "defaults\n    mode http\n    timeout connect 5s\n    timeout client 60s\n"
                "    timeout server 60s\n    timeout http-request 10s\n    timeout tunnel 1h\n"
                "    timeout client-fin 5s\n    timeout server-fin 5s",
                frontend,
                backend("rooms", ROOMS),
                backend("crowd", CROWD),
                backend("app", DEFAULT),
            ]
        )
        + "\n"
    )
