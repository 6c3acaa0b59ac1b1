"""The server load generator and its bare-stack baseline (``tictactoe bench``).

``run_bench`` drives the real server and the bare relay (``bench.load.relay``) with the
same WebSocket clients speaking docs/protocol.md, and reports throughput, latency,
connections, errors and the server's CPU and memory, each with its ratio to the relay.
"""

from __future__ import annotations

from .launch import CONFIGS, Config, RedisProcess, launch
from .parent import run_load
from .recorder import Recorder, summarize
from .run import BenchOptions, run_bench, write_report
from .scripts import Script, make_scripts
from .worker import CROWD_FROM, LoadPlan, Progress

__all__ = [
    "CONFIGS",
    "CROWD_FROM",
    "BenchOptions",
    "Config",
    "LoadPlan",
    "Progress",
    "Recorder",
    "RedisProcess",
    "Script",
    "launch",
    "make_scripts",
    "run_bench",
    "run_load",
    "summarize",
    "write_report",
]
