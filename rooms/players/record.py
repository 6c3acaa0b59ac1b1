"""A player identity: a public id, a secret kept only as its hash, a display name, two times.

A guest identity is an account without a password or an e-mail: the server issues the id and
the secret, the player keeps the secret (the browser in localStorage, ``play --connect`` in a
file), and whoever presents it is that player. Losing the secret loses the identity. The
record is a flat mapping of short fields, the same in memory as in a Redis hash, so both
directories decode it with ``from_fields``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass
from typing import Any

__all__ = [
    "MAX_SECRET",
    "PLAYER_TTL",
    "Credentials",
    "Player",
    "from_fields",
    "credentials_of",
    "hash_secret",
    "new_secret",
    "secret_matches",
    "to_fields",
]

PLAYER_TTL = 400 * 24 * 3600.0
"""Seconds an identity is kept after its last use (a join that presents it, a rename): a
player who comes back within about a year keeps it; one who never does is forgotten."""

MAX_SECRET = 128
"""The longest secret a request may present (ours are 43 characters): longer is malformed."""
MAX_PLAYER_ID = 64
"""The longest player id a request may present (ours are 16 characters)."""


def new_secret() -> str:
    """256 random bits, URL-safe (43 characters): far beyond guessing, so it is the identity."""
    return secrets.token_urlsafe(32)


def hash_secret(secret: str) -> str:
    """The stored form of a secret. One SHA-256 is right here: password stretching (bcrypt,
    scrypt, Argon2) exists to slow down guessing low-entropy human passwords from a stolen
    hash, but a 256-bit random secret cannot be guessed at any speed, and a fast hash keeps
    every join that presents it cheap."""
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def secret_matches(secret: str, stored_hash: str) -> bool:
    """Whether ``secret`` is the one ``stored_hash`` was made from, in constant time."""
    return hmac.compare_digest(hash_secret(secret).encode(), stored_hash.encode())


@dataclass(frozen=True, slots=True)
class Credentials:
    """What a client presents to act as an identity: its id and its secret."""

    player_id: str
    secret: str

    def __repr__(self) -> str:  # never print a secret
        return f"Credentials(player_id={self.player_id!r}, secret=<secret>)"


def credentials_of(value: object) -> Credentials:
    """A request's ``player``, ``{"id": ..., "secret": ...}``, checked for shape only (whether
    it proves an identity is the directory's to say); ValueError saying what is wrong."""
    if not isinstance(value, dict):
        raise ValueError(
            f'player must be an object {{"id": ..., "secret": ...}}, got {value!r:.80}'
        )
    player_id, secret = value.get("id"), value.get("secret")
    if not isinstance(player_id, str) or not 1 <= len(player_id) <= MAX_PLAYER_ID:
        raise ValueError(f"player.id must be a string of 1 to {MAX_PLAYER_ID} characters")
    if not isinstance(secret, str) or not 1 <= len(secret) <= MAX_SECRET:
        raise ValueError(f"player.secret must be a string of 1 to {MAX_SECRET} characters")
    return Credentials(player_id, secret)


@dataclass(frozen=True, slots=True)
class Player:
    """An identity as the server knows it (never the secret, nor its hash).

    ``created`` and ``seen`` are server times (seconds since the epoch): when it was issued and
    when it was last used."""

    player_id: str
    name: str
    created: float
    seen: float
    bot: bool = False
    """A bot account (rooms.bots): declared when it was made, never changed after."""

    def public(self) -> dict[str, Any]:
        """What anyone may read: ``GET /api/players/{id}``."""
        return {
            "player_id": self.player_id,
            "name": self.name,
            "created": self.created,
            "bot": self.bot,
        }


def to_fields(player: Player, secret_hash: str) -> dict[str, str]:
    """The stored record: ``h`` the secret's hash, ``n`` the name, ``c`` created, ``s`` seen;
    a bot's also ``b`` (``"1"``) and, once it has one, ``t`` its token's hash (rooms.bots)."""
    fields = {
        "h": secret_hash,
        "n": player.name,
        "c": repr(player.created),
        "s": repr(player.seen),
    }
    if player.bot:
        fields["b"] = "1"
    return fields


def from_fields(player_id: str, fields: dict[str, str]) -> tuple[Player, str] | None:
    """The player and its secret's hash from a stored record; None for no (or a partial)
    record, which counts as no identity."""
    try:
        player = Player(
            player_id,
            fields["n"],
            float(fields["c"]),
            float(fields["s"]),
            bot=fields.get("b") == "1",
        )
        return player, fields["h"]
    except (KeyError, ValueError):
        return None
