"""The server layer's error root: bad settings (named by field) and refused configurations.

Protocol errors are rooms' ``RoomError`` with stable codes; these are the server's own.
"""

from __future__ import annotations

__all__ = ["ServerError", "SettingsError"]


class ServerError(Exception):
    """Root of the server layer's errors; ``str(err)`` is a complete human sentence."""


class SettingsError(ServerError):
    """A setting that cannot be used; ``field`` names it (``port``, ``allowed_origins``...)."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.reason = message
