"""The soak (``tictactoe soak``): real games across real server processes on one Redis,
while servers and Redis are killed, stopped and frozen; every acknowledged move must be in
the final record exactly once and every game must finish (docs/operations.md, "Soak");
with ``affinity`` every client goes through a real HAProxy with the deployment's room
affinity (bench.soak.balancer).

``run_soak`` runs it and returns the report; ``run_storm`` is the reconnect storm (many
clients on one server, that server killed, every client resuming on another);
``judge`` is the per-game check and ``scan_text`` the log scan, both pure; ``CHECKS`` the
checks with their exit statuses.
"""

from __future__ import annotations

from .check import Ack, StoredGame, Verdict, judge
from .logs import LogScan, scan_text
from .options import SoakOptions
from .processes import SoakError
from .report import CHECKS, build_report, render_table
from .run import run_soak
from .storm import StormOptions, render_storm, run_storm

__all__ = [
    "CHECKS",
    "Ack",
    "LogScan",
    "SoakError",
    "SoakOptions",
    "StormOptions",
    "StoredGame",
    "Verdict",
    "build_report",
    "judge",
    "render_storm",
    "render_table",
    "run_soak",
    "run_storm",
    "scan_text",
]
