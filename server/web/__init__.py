"""The browser client's delivery: its files, the page with its module graph bundled in,
gzip, the client's version, and the room page with the room's snapshot inside it."""

from __future__ import annotations

from .files import ClientFiles
from .room_page import room_page_routes

__all__ = ["ClientFiles", "room_page_routes"]
