"""Run uvicorn's worker processes and exit with a status a supervisor can trust.

``uvicorn.run(..., workers=N)`` stops its parent when a worker fails to start, but then
returns normally, so the command exited 0. Here the same supervisor (uvicorn's
``Multiprocess``) runs, and afterwards the exit codes of its workers say whether one of
them failed to start (uvicorn's ``STARTUP_FAILURE``).
"""

from __future__ import annotations

from typing import Any

__all__ = ["STARTUP_FAILED", "run_workers"]

STARTUP_FAILED = 1
"""The exit status when a worker could not start (the reason is in the log above)."""


def run_workers(workers: int, log_config: dict[str, Any], options: dict[str, Any]) -> int:
    """Serve ``server.app:create_app`` (built from the environment) in ``workers``
    processes until a signal stops them: 0, or STARTUP_FAILED when one failed to start."""
    from uvicorn import Config
    from uvicorn.config import STARTUP_FAILURE
    from uvicorn.supervisors import Multiprocess

    config = Config(
        "server.app:create_app",
        factory=True,
        workers=workers,
        log_config=log_config,
        **options,
    )
    socket = config.bind_socket()  # exits 1 with uvicorn's one line when the port is taken
    supervisor = Multiprocess(config, sockets=[socket])
    try:
        supervisor.run()
    finally:
        socket.close()
    failed = [p for p in supervisor.processes if p.exitcode == STARTUP_FAILURE]
    return STARTUP_FAILED if failed else 0
