"""A bot's API token: ``tb1.<player id>.<256 random bits>``, kept by the server as its hash.

The bot's id is in the token so that the one record it proves is found with one read; the
random part is what proves it. Like an identity's secret (rooms.players.record) one SHA-256
is the right stored form: nobody guesses 256 random bits, however fast the hash. The prefix
makes a leaked token easy to recognise (secret scanners, log redaction: server.logs.redact).
"""

from __future__ import annotations

import re
import secrets

from rooms.common.ids import valid_player_id

__all__ = ["MAX_BOT_TOKEN", "TOKEN_PREFIX", "bot_of_token", "looks_like_bot_token", "new_bot_token"]

TOKEN_PREFIX = "tb1."
MAX_BOT_TOKEN = 128
"""The longest token a request may present (ours are about 65 characters)."""
_SHAPE = re.compile(r"tb1\.([A-Za-z0-9_-]{1,64})\.[A-Za-z0-9_-]{43}")


def new_bot_token(player_id: str) -> str:
    return f"{TOKEN_PREFIX}{player_id}.{secrets.token_urlsafe(32)}"


def looks_like_bot_token(value: object) -> bool:
    """Whether ``value`` has a bot token's prefix (not whether it proves anything)."""
    return isinstance(value, str) and value.startswith(TOKEN_PREFIX)


def bot_of_token(token: object) -> str | None:
    """The bot id a well-formed token names (None: not a token's shape)."""
    if not isinstance(token, str) or len(token) > MAX_BOT_TOKEN:
        return None
    match = _SHAPE.fullmatch(token)
    if match is None or not valid_player_id(match.group(1)):
        return None
    return match.group(1)
