"""Names as the terminal prints them: a bot account's with its BOT mark (docs/protocol.md,
"Bots"), so that a program is never taken for a person, as the browser marks it too."""

from __future__ import annotations

from typing import Any

__all__ = ["BOT_MARK", "shown_name"]

BOT_MARK = "[BOT]"


def shown_name(who: dict[str, Any]) -> str:
    """A seat's or a tournament entrant's name, ``Robo [BOT]`` for a bot account."""
    name = str(who["name"])
    return f"{name} {BOT_MARK}" if who.get("bot_account") else name
