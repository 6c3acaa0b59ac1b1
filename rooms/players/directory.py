"""The player directory seam: issue identities, read them, and let their holders use them.

``PlayerDirectory`` is what the server calls; ``Directory`` implements it once over three
storage primitives (insert a new record, read one, update one that is still the record the
caller verified), which the memory directory (``rooms.players.memory``) and the Redis one
(``rooms.backends.redis.players``) provide. The secret is checked here, in Python, with a
constant-time comparison; the storage's update is a compare-and-set on the record it read, so
a rename is one atomic write of a record whose secret was just checked.

An identity is not room state: a join that presents one reads (and refreshes) it here, before
the room's own compare-and-set commit, which only records the verified ``player_id``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from rooms.common.ids import new_player_id, valid_player_id
from rooms.errors import ErrorCode, RoomError
from rooms.players.record import (
    PLAYER_TTL,
    Credentials,
    Player,
    from_fields,
    hash_secret,
    new_secret,
    secret_matches,
    to_fields,
)

__all__ = ["Directory", "PlayerDirectory", "bad_identity", "verified"]

_ABSENT = hash_secret(new_secret())
"""Compared against when no record is there, so an unknown id costs what a wrong secret
costs: the answer and its timing tell neither apart."""
_DRAWS = 3
"""Fresh ids a create tries before giving up (a collision of 96 random bits never happens)."""


class PlayerDirectory(Protocol):
    async def create(self, name: str, *, bot: bool = False) -> tuple[Player, str]:
        """A new identity named ``name`` (already clean): the player and its secret, which is
        never stored and never shown again; ``bot``: a bot account (rooms.bots)."""

    async def bot_token_hash(self, player_id: str) -> tuple[Player, str] | None:
        """The bot ``player_id`` names and its token's hash (``""``: none, or revoked);
        None when it names no bot. A read, not a use."""

    async def set_bot_token(self, player_id: str, token_hash: str) -> bool:
        """Store ``token_hash`` as the bot's token (``""`` revokes it) in one write that
        every worker reads next; False when ``player_id`` names no bot."""

    async def get(self, player_id: str) -> Player | None:
        """The identity ``player_id`` names (None: none, or it expired); not a use of it."""

    async def verify(self, credentials: Credentials) -> Player | None:
        """The identity, when the secret is its own (None otherwise, whether the id is unknown
        or the secret wrong); a use: its last-seen time and lifetime are refreshed."""

    async def rename(self, credentials: Credentials, name: str) -> Player | None:
        """As ``verify``, and the identity is called ``name`` (already clean) from now on."""


class Directory:
    """``PlayerDirectory`` over the storage primitives of a subclass."""

    def __init__(self, *, ttl: float = PLAYER_TTL, clock: Callable[[], float] = time.time) -> None:
        if isinstance(ttl, bool) or not isinstance(ttl, int | float) or not ttl > 0:
            raise ValueError(f"ttl must be a number of seconds above 0, not {ttl!r}")
        self.ttl = float(ttl)
        self.clock = clock

    # -- storage primitives ---------------------------------------------------------------

    async def _insert(self, player_id: str, fields: dict[str, str]) -> bool:
        """Store a new record for ``ttl`` seconds; False when the id is taken."""
        raise NotImplementedError

    async def _read(self, player_id: str) -> dict[str, str] | None:
        """The stored record (None: none)."""
        raise NotImplementedError

    async def _update(
        self, player_id: str, secret_hash: str, seen: float, name: str | None
    ) -> bool:
        """Only if the record holds ``secret_hash`` still (it was not expired, or replaced,
        since it was read): set its last-seen time (and name), give it ``ttl`` seconds again,
        and return True; else False."""
        raise NotImplementedError

    async def _set_token(self, player_id: str, token_hash: str) -> bool:
        """Only if the record is a bot's (``b`` is ``"1"``): set ``t`` to ``token_hash``, give
        it ``ttl`` seconds again, and return True; else False."""
        raise NotImplementedError

    # -- the seam -------------------------------------------------------------------------

    async def create(self, name: str, *, bot: bool = False) -> tuple[Player, str]:
        secret = new_secret()
        secret_hash = hash_secret(secret)
        now = self.clock()
        for _ in range(_DRAWS):
            player = Player(new_player_id(), name, now, now, bot=bot)
            if await self._insert(player.player_id, to_fields(player, secret_hash)):
                return player, secret
        raise RoomError(ErrorCode.INTERNAL_ERROR, "could not draw a free player id")

    async def get(self, player_id: str) -> Player | None:
        if not valid_player_id(player_id):
            return None
        fields = await self._read(player_id)
        found = from_fields(player_id, fields) if fields is not None else None
        return found[0] if found is not None else None

    async def verify(self, credentials: Credentials) -> Player | None:
        return await self._use(credentials, None)

    async def bot_token_hash(self, player_id: str) -> tuple[Player, str] | None:
        fields = await self._read(player_id) if valid_player_id(player_id) else None
        found = from_fields(player_id, fields) if fields is not None else None
        if found is None or not found[0].bot:
            return None
        assert fields is not None
        return found[0], fields.get("t", "")

    async def set_bot_token(self, player_id: str, token_hash: str) -> bool:
        return valid_player_id(player_id) and await self._set_token(player_id, token_hash)

    async def rename(self, credentials: Credentials, name: str) -> Player | None:
        return await self._use(credentials, name)

    async def _use(self, credentials: Credentials, name: str | None) -> Player | None:
        player_id = credentials.player_id
        fields = await self._read(player_id) if valid_player_id(player_id) else None
        found = from_fields(player_id, fields) if fields is not None else None
        player, stored_hash = found if found is not None else (None, _ABSENT)
        if not secret_matches(credentials.secret, stored_hash) or player is None:
            return None
        now = self.clock()
        if not await self._update(player_id, stored_hash, now, name):
            return None  # expired between the read and the update
        return replace(player, name=name if name is not None else player.name, seen=now)


def bad_identity(credentials: Credentials) -> RoomError:
    """The refusal of ``credentials``: one answer for an unknown id and a wrong secret, so
    neither is revealed."""
    return RoomError(
        ErrorCode.BAD_IDENTITY,
        f"player {credentials.player_id!r:.40} and this secret match no identity here",
    )


async def verified(directory: PlayerDirectory, credentials: Credentials) -> Player:
    """The identity ``credentials`` prove (a use of it), or ``RoomError(bad_identity)``."""
    player = await directory.verify(credentials)
    if player is None:
        raise bad_identity(credentials)
    return player
