"""Bot accounts: an identity declared a bot when it is made, and its API token.

A bot account is a player identity (rooms.players) with ``bot`` set: it keeps the identity's
secret, which its owner uses to manage it, and gets an API token, which the bot presents to
play (``POST /api/bots``, docs/protocol.md "Bots"). The token's hash is a field of the
identity's record, so rotating it (a new one, the old one refused) and revoking it (none)
are one write, and every worker checks a token against the store at each use: a revoked
token is refused at once everywhere, with no cache to expire.
"""

from __future__ import annotations

from rooms.bots.tokens import bot_of_token, looks_like_bot_token, new_bot_token
from rooms.errors import ErrorCode, RoomError
from rooms.players import Credentials, Player, PlayerDirectory
from rooms.players.record import hash_secret, new_secret, secret_matches

__all__ = ["authenticate", "authorize_owner", "create_bot", "issue_token", "revoke_token"]

_ABSENT = hash_secret(new_secret())
"""Compared against when there is no token to compare with, so that an unknown bot, a revoked
token and a wrong one cost the same and get the same answer."""


async def create_bot(directory: PlayerDirectory, name: str) -> tuple[Player, str, str]:
    """A new bot account named ``name``: the bot, its owner's secret and its first token."""
    player, secret = await directory.create(name, bot=True)
    token = await issue_token(directory, player.player_id)
    return player, secret, token


async def issue_token(directory: PlayerDirectory, bot_id: str) -> str:
    """A new token for ``bot_id``; the one it had stops working now."""
    token = new_bot_token(bot_id)
    if not await directory.set_bot_token(bot_id, hash_secret(token)):
        raise RoomError(ErrorCode.PLAYER_NOT_FOUND, f"no bot {bot_id!r:.40}")
    return token


async def revoke_token(directory: PlayerDirectory, bot_id: str) -> None:
    """``bot_id`` has no token from now on (until ``issue_token``)."""
    if not await directory.set_bot_token(bot_id, ""):
        raise RoomError(ErrorCode.PLAYER_NOT_FOUND, f"no bot {bot_id!r:.40}")


async def authenticate(directory: PlayerDirectory, token: str) -> Player | None:
    """The bot ``token`` is the current token of (None: unknown, revoked, rotated away)."""
    bot_id = bot_of_token(token)
    found = await directory.bot_token_hash(bot_id) if bot_id is not None else None
    stored = found[1] if found is not None and found[1] else _ABSENT
    if not secret_matches(token, stored) or found is None:
        return None
    return found[0]


async def authorize_owner(directory: PlayerDirectory, bot_id: str, presented: str) -> Player:
    """The bot ``bot_id``, when ``presented`` is its owner's secret or its current token;
    ``bad_identity`` otherwise (one answer for every failure)."""
    player: Player | None
    if looks_like_bot_token(presented):
        player = await authenticate(directory, presented)
    else:
        player = await directory.verify(Credentials(bot_id, presented))
    if player is None or not player.bot or player.player_id != bot_id:
        raise RoomError(
            ErrorCode.BAD_IDENTITY, f"bot {bot_id!r:.40} and this secret or token do not match"
        )
    return player
