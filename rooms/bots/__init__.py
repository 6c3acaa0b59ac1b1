"""Bot accounts and what waits for them (docs/protocol.md, "Bots").

A bot account is a player identity declared a bot when it is made (rooms.bots.accounts), with
an API token it rotates and revokes (rooms.bots.tokens); the desk (rooms.bots.desk, beside
the room store: ``Backend.bot_desk``) holds its challenges and seats for whichever worker its
socket is on; rooms.bots.challenges makes and answers challenges; rooms.bots.limits names the
per-bot limits.
"""

from __future__ import annotations

from rooms.bots.accounts import (
    authenticate,
    authorize_owner,
    create_bot,
    issue_token,
    revoke_token,
)
from rooms.bots.desk import BotDesk, MemoryBotDesk
from rooms.bots.limits import BotLimits
from rooms.bots.tokens import MAX_BOT_TOKEN, bot_of_token, looks_like_bot_token

__all__ = [
    "MAX_BOT_TOKEN",
    "BotDesk",
    "BotLimits",
    "MemoryBotDesk",
    "authenticate",
    "authorize_owner",
    "bot_of_token",
    "create_bot",
    "issue_token",
    "looks_like_bot_token",
    "revoke_token",
]
