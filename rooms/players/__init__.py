"""Guest identities: a player id and a secret, without an account (docs/protocol.md, Players).

``PlayerDirectory`` is the seam (``open_backend`` builds one beside the room store:
``Backend.players``); ``MemoryDirectory`` serves ``memory://`` and
``rooms.backends.redis.players.RedisDirectory`` every Redis URL. ``verified`` turns presented
``Credentials`` into the ``Player`` they prove, or a ``bad_identity`` error.
"""

from __future__ import annotations

from rooms.players.directory import Directory, PlayerDirectory, bad_identity, verified
from rooms.players.memory import MemoryDirectory
from rooms.players.record import MAX_SECRET, PLAYER_TTL, Credentials, Player, credentials_of

__all__ = [
    "MAX_SECRET",
    "PLAYER_TTL",
    "Credentials",
    "Directory",
    "MemoryDirectory",
    "Player",
    "PlayerDirectory",
    "bad_identity",
    "credentials_of",
    "verified",
]
