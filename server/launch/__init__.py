"""Running the server: uvicorn's options, its worker processes, the checks made before
a start, and a failed start reported in one line."""

from __future__ import annotations

from .checks import StoreUnreachable, reach_store, setting_labels, unknown_variables
from .options import uvicorn_options, worker_env
from .startup import OneLineStartupFailure, one_line
from .workers import STARTUP_FAILED, run_workers

__all__ = [
    "STARTUP_FAILED",
    "OneLineStartupFailure",
    "StoreUnreachable",
    "one_line",
    "reach_store",
    "run_workers",
    "setting_labels",
    "unknown_variables",
    "uvicorn_options",
    "worker_env",
]
