"""How uvicorn runs this app: its Config keywords, and the settings handed to its workers.

Shared by ``tictactoe serve``, the bench's comparison servers and the tests' in-process
servers, so that every one of them runs on exactly the server's stack.
"""

from __future__ import annotations

import importlib.util
from dataclasses import fields
from typing import Any

from ..settings import Settings

__all__ = ["uvicorn_options", "worker_env"]


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The uvicorn Config keywords for ``settings``: the fastest implementations installed,
    and with the fastpath on, the protocol subclasses that free a connection once it ends."""
    from uvicorn.config import WS_PROTOCOLS

    installed = importlib.util.find_spec
    http: type | str = "httptools" if installed("httptools") else "h11"
    ws: type | str = "websockets-sansio" if "websockets-sansio" in WS_PROTOCOLS else "websockets"
    if settings.fastpath and http == "httptools" and ws == "websockets-sansio":
        # the module subclasses both, so it is imported only when both are there
        from ..fastpath.uvicorn_protocols import ReleasingWebSockets, UpgradeReleasingHttpTools

        http, ws = UpgradeReleasingHttpTools, ReleasingWebSockets
    return {
        "host": settings.host,
        "port": settings.port,
        "loop": "uvloop" if installed("uvloop") else "asyncio",
        "http": http,
        "ws": ws,
        "ws_max_size": settings.max_frame_bytes,
        "ws_ping_interval": settings.ping_interval,
        "ws_ping_timeout": settings.ping_timeout,
        "ws_per_message_deflate": False,
        "lifespan": "on",
        "server_header": False,  # no "server: uvicorn" (the Date header stays: HTTP wants it)
    }


def worker_env(settings: Settings) -> dict[str, str]:
    """The ``TICTACTOE_*`` variables that make ``Settings.from_env()`` equal ``settings``."""
    env = {}
    for spec in fields(settings):
        value = getattr(settings, spec.name)
        text = ",".join(value) if isinstance(value, tuple) else str(value)
        env[f"TICTACTOE_{spec.name.upper()}"] = text
    return env
