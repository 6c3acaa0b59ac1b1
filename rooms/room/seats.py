"""Seats are capabilities: a seat token (256 random bits) is stored only as its hash.

The token is handed to the player in the ``welcome`` that took the seat; presenting it again
(from any connection, on any worker) resumes the seat. A seat taken with a client-chosen join
key also keeps that key's hash until the seat is first resumed with its token: repeating the
seat-taking join with the key (its answer was lost) gets the seat again with a fresh token.
Hashes are compared in constant time, and every seat is compared, so timing reveals neither
which seat matched nor how much of a hash did. A seat taken by a player who proved a guest
identity (rooms.players) records its public ``player_id``, kept through rematches.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Seat", "find_seat", "find_seat_by_key", "hash_token", "new_token"]


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(slots=True)
class Seat:
    """A taken seat: its mark, the player's name, the token hash, the open connections,
    and the ``move_id``s it played with the version each landed at (idempotent moves).

    ``bot`` is the level of a bot seat (no token, no connections, always present);
    ``away_since`` is when a human seat's last connection closed (None while connected),
    ``left`` whether it said it was leaving; ``wins`` and ``draws`` are the series score,
    which follows the player when the marks rotate for a rematch. ``key_hash`` is the hash of
    the join key the seat was taken with, until the token first resumes it (None: none);
    ``player_id`` the identity of the player who took it (None: a guest without one, a bot);
    ``bot_account`` whether that identity is a bot account (rooms.bots): its seat has no
    token (an empty hash), so only a join presenting the bot's own token takes it."""

    mark: str
    name: str
    token_hash: str
    connections: list[str] = field(default_factory=list)
    moves: dict[str, int] = field(default_factory=dict)
    bot: str | None = None
    away_since: float | None = None
    left: bool = False
    wins: int = 0
    draws: int = 0
    key_hash: str | None = None
    player_id: str | None = None
    bot_account: bool = False

    @property
    def connected(self) -> bool:
        return self.bot is not None or bool(self.connections)

    def claimable_at(self, abandon_grace: float, leave_grace: float) -> float | None:
        """From when an opponent may claim against this seat (None: it is here)."""
        if self.connected or self.away_since is None:
            return None
        return self.away_since + (leave_grace if self.left else abandon_grace)

    def public(self, abandon_grace: float = 30.0, leave_grace: float = 5.0) -> dict[str, Any]:
        """What everyone may see: never the token hash, the connections or move ids."""
        return {
            "mark": self.mark,
            "name": self.name,
            "connected": self.connected,
            "bot": self.bot,
            "away_since": self.away_since,
            "left": self.left,
            "claimable_at": self.claimable_at(abandon_grace, leave_grace),
            "wins": self.wins,
            "draws": self.draws,
            "player_id": self.player_id,
            "bot_account": self.bot_account,
        }

    def copy(self) -> Seat:
        """An independent seat in the same state (its lists and dicts copied)."""
        return Seat(
            self.mark,
            self.name,
            self.token_hash,
            self.connections.copy(),
            self.moves.copy(),
            self.bot,
            self.away_since,
            self.left,
            self.wins,
            self.draws,
            self.key_hash,
            self.player_id,
            self.bot_account,
        )

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "mark": self.mark,
            "name": self.name,
            "token_hash": self.token_hash,
            "connections": list(self.connections),
            "moves": dict(self.moves),
            "bot": self.bot,
            "away_since": self.away_since,
            "left": self.left,
            "wins": self.wins,
            "draws": self.draws,
        }
        if self.key_hash is not None:  # rare, and short-lived: no field for the other seats
            data["key_hash"] = self.key_hash
        if self.player_id is not None:  # guests' seats, and rooms stored before, have none
            data["player_id"] = self.player_id
        if self.bot_account:
            data["bot_account"] = True
        return data

    def matches(self, data: Any) -> bool:
        """Whether ``from_dict(data)`` would build a seat equal to this one (False when it
        would not, or would refuse ``data``): a decode keeps the earlier state's seat
        then (rooms.protocol.codec). Equal values are enough, as ``from_dict`` converts each field
        to the type this seat holds (``true`` and ``1.0`` become the ``1`` they equal)."""
        return (
            type(data) is dict
            and data.get("moves") == self.moves
            and data.get("connections") == self.connections
            and data.get("token_hash") == self.token_hash
            and data.get("mark") == self.mark
            and data.get("name") == self.name
            and data.get("bot") == self.bot
            and data.get("away_since") == self.away_since
            and data.get("left", False) == self.left
            and data.get("wins", 0) == self.wins
            and data.get("draws", 0) == self.draws
            and data.get("key_hash") == self.key_hash
            and data.get("player_id") == self.player_id
            and data.get("bot_account", False) == self.bot_account
        )

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Seat:
        # positional, and lists copied whole when they hold only strings (always, for a
        # record this code wrote): every decode of a room builds every seat
        away = data.get("away_since")
        bot = data.get("bot")
        key = data.get("key_hash")
        player = data.get("player_id")
        return cls(
            str(data["mark"]),
            str(data["name"]),
            str(data["token_hash"]),
            _strings(data["connections"]),
            _move_versions(data["moves"]),
            str(bot) if bot is not None else None,
            float(away) if away is not None else None,
            bool(data.get("left", False)),
            int(data.get("wins", 0)),
            int(data.get("draws", 0)),
            str(key) if key is not None else None,
            str(player) if player is not None else None,
            bool(data.get("bot_account", False)),
        )


def _strings(data: Any) -> list[str]:
    """``[str(c) for c in data]``, copied as it is when it is a list of strings only."""
    if type(data) is list and set(map(type, data)) <= _STR:
        return data.copy()
    return [str(c) for c in data]


def _move_versions(data: dict[Any, Any]) -> dict[str, int]:
    """``{move_id: version}`` from a stored seat: copied as it is when it already holds
    only strings and whole numbers (always, for a record this code wrote), else converted
    (and refused with a ValueError or TypeError when it cannot be)."""
    if set(map(type, data)) <= _STR and set(map(type, data.values())) <= _INT:
        return dict(data)
    return {str(k): int(v) for k, v in data.items()}


_STR, _INT = {str}, {int}


def find_seat(seats: Sequence[Seat], token: str) -> Seat | None:
    """The seat ``token`` belongs to, or None; compares against every seat in constant time."""
    presented = hash_token(token).encode()
    found: Seat | None = None
    for seat in seats:  # a bot seat's hash is empty: no token ever matches it
        if hmac.compare_digest(presented, seat.token_hash.encode()):
            found = seat
    return found


def find_seat_by_key(seats: Sequence[Seat], join_key: str) -> Seat | None:
    """The seat taken with ``join_key`` and not yet resumed with its token, or None; compares
    against every seat in constant time, as ``find_seat`` does."""
    presented = hash_token(join_key).encode()
    found: Seat | None = None
    for seat in seats:  # a seat without a key compares against an empty hash: never equal
        if hmac.compare_digest(presented, (seat.key_hash or "").encode()):
            found = seat
    return found
