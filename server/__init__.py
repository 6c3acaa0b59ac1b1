"""The server layer: the Starlette app (HTTP + WebSocket), its settings and the CLI.

``create_app(settings)`` builds the app; ``tictactoe serve`` runs it under uvicorn.
"""

from __future__ import annotations

from .app import create_app
from .errors import ServerError, SettingsError
from .settings import Settings
from .ws.close_codes import CloseCode

__all__ = ["CloseCode", "ServerError", "Settings", "SettingsError", "create_app"]
