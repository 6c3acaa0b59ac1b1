"""The bot API (docs/protocol.md, "Bots"): bot accounts over HTTP, the bot socket
``/ws/bot`` where a bot hears of its challenges and seats, and the gate that checks its
token and keeps its limits wherever it acts (the room socket's joins and moves too)."""

from __future__ import annotations

from .gate import BotGate

__all__ = ["BotGate"]
