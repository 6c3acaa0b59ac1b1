"""HAProxy in front of the bench's (or the soak's) server processes: the affinity deployment.

The configuration is the bench's own, minimal one, not deploy/haproxy.cfg: a loopback
port, the processes the bench started (no DNS, no TLS), no logging. Its balancing rules
are deploy/haproxy.cfg's, line for line (``FRONTEND_RULES``, ``ROOMS``, ``CROWD``,
``DEFAULT``; tests/bench/test_bench_affinity.py holds them equal): a room's players'
sockets, page and API hashed on the room id onto a consistent ring, the spectators' path
and everything else spread by open connections. So what a run pays for HAProxy is what the
deployment pays, and its CPU is counted with the servers' (bench.load.measure).

The bench's servers never die during a run, so its configuration has no health checks.
The soak kills its servers: with ``failover`` the configuration also has the deployment's
checks of ``/readyz`` and its retries with redispatch (``CHECKS``, ``CHECK_TIMING``,
``FAILOVER``, held equal to deploy/haproxy.cfg's by the same test), so a dead server
leaves the ring and a restarted one takes its share back as in the deployment; a stats
socket to read the servers' states from; and a header naming the server behind every
answer (``SERVED_BY``), so clients know where each socket landed.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = [
    "CHECKS",
    "CHECK_TIMING",
    "CROWD",
    "DEFAULT",
    "FAILOVER",
    "FRONTEND_RULES",
    "ROOMS",
    "SERVED_BY",
    "Failover",
    "haproxy_binary",
    "haproxy_config",
    "server_name",
]

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
CHECKS = ("option httpchk GET /readyz", "http-check expect status 200")
"""Each backend's health check, as deployed."""
CHECK_TIMING = "inter 2s fall 2 rise 2"
"""How often a server is checked and how many checks turn it down or up, as deployed."""
FAILOVER = ("retries 3", "option redispatch 1")
"""The defaults' retries: a refused connection (a server just died, its checks have not
failed yet) is tried again at once on another server, as deployed."""
SERVED_BY = "X-Served-By"
"""With ``failover``: the header on every answer naming the server (``server_name``)."""


def server_name(index: int) -> str:
    """The name of the ``index``-th server (0-based) in every backend: ``app1``, ..."""
    return f"app{index + 1}"


@dataclass(frozen=True, slots=True)
class Failover:
    """What a configuration in front of servers that die needs (see the module's doc)."""

    stats_socket: Path
    """Where HAProxy's runtime API listens (``show stat``), user level."""


def haproxy_binary() -> str | None:
    """Where haproxy is (Debian puts it in /usr/sbin, which a user's PATH may lack)."""
    return shutil.which("haproxy") or shutil.which("haproxy", path="/usr/sbin:/usr/local/sbin")


def haproxy_config(
    port: int, servers: Sequence[int], *, maxconn: int, failover: Failover | None = None
) -> str:
    """The configuration of HAProxy on loopback ``port`` in front of the processes on
    loopback ``servers`` (each a single process: affinity is to a process)."""

    def backend(name: str, rules: Sequence[str]) -> str:
        lines = [f"backend {name}", *(f"    {rule}" for rule in rules)]
        if failover is not None:
            lines += [f"    {check}" for check in CHECKS]
            lines.append(f"    default-server {CHECK_TIMING} check")
        lines += [
            f"    server {server_name(index)} 127.0.0.1:{server}"
            for index, server in enumerate(servers)
        ]
        return "\n".join(lines)

    settings = [f"maxconn {maxconn}"]
    # deploy/haproxy.cfg's timeouts: a WebSocket is a tunnel once upgraded
    defaults = [
        "mode http",
        "timeout connect 5s",
        "timeout client 60s",
        "timeout server 60s",
        "timeout http-request 10s",
        "timeout tunnel 1h",
        "timeout client-fin 5s",
        "timeout server-fin 5s",
    ]
    frontend = [f"bind 127.0.0.1:{port}", *FRONTEND_RULES]
    if failover is not None:
        settings.append(f"stats socket {failover.stats_socket} mode 600 level user")
        defaults += FAILOVER
        frontend.insert(1, f"http-response set-header {SERVED_BY} %s")
    return (
        "\n\n".join(
            [
                "\n".join(["global", *(f"    {line}" for line in settings)]),
                "\n".join(["defaults", *(f"    {line}" for line in defaults)]),
                "\n".join(["frontend web", *(f"    {line}" for line in frontend)]),
                backend("rooms", ROOMS),
                backend("crowd", CROWD),
                backend("app", DEFAULT),
            ]
        )
        + "\n"
    )
