"""The browser client's delivery: its files, the page with its module graph bundled in,
gzip, the client's version, the room page with the room's snapshot inside it, and the game
viewer other sites may frame."""

from __future__ import annotations

from .embed_page import embed_routes
from .files import ClientFiles
from .room_page import room_page_routes

__all__ = ["ClientFiles", "embed_routes", "room_page_routes"]
