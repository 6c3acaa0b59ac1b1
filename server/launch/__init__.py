"""Running the server: uvicorn's options, one worker (with its drain) or a supervisor of
several, the checks made before a start, and a failed start reported in one line."""

from __future__ import annotations

from .checks import StoreUnreachable, reach_store, setting_labels, unknown_variables
from .options import uvicorn_options, worker_env
from .startup import OneLineStartupFailure, one_line
from .worker import PORT_IN_USE, STARTUP_FAILED, serve_in_process
from .workers import run_workers

__all__ = [
    "STARTUP_FAILED",
    "PORT_IN_USE",
    "OneLineStartupFailure",
    "StoreUnreachable",
    "one_line",
    "reach_store",
    "run_workers",
    "serve_in_process",
    "setting_labels",
    "unknown_variables",
    "uvicorn_options",
    "worker_env",
]
