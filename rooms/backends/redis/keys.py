"""Where a room lives in Redis: the key layout shared by the Redis store and bus.

Every key of one room carries the hash tag ``{room_id}``, so on a Cluster its record, event log
and channel map to one slot and the commit script may touch all three. The lobby and the epoch
are global keys, so nothing needs a cross-slot script:

``<prefix>:{<room>}:room``  hash: ``v`` version, ``d`` room object, ``g`` its archive
                            (``archive``), ``c`` creation time, ``l`` listed (1/0),
                            ``f`` finished (1/0)
``<prefix>:{<room>}:log``   list: the newest event texts, oldest first
``<prefix>:{<room>}:ch``    pub/sub channel carrying the event texts
``<prefix>:lobby``          sorted set: listed room ids scored by creation time
``<prefix>:epoch``          string: a random id naming this Redis dataset (``epoch``)
``<prefix>:{<tag>}:epoch``  string: on a Cluster, the same per hash slot, ``<tag>`` being a
                            short string that hashes to that slot (``cluster.store``)
``<prefix>:player:{<id>}``  hash: a player identity (``players``): ``h`` its secret's hash,
                            ``n`` name, ``c`` created, ``s`` last seen; one key, one slot
``<prefix>:{rating:<pool>}:…`` a rating pool (``ratings``): ``p:<player>`` a rating, ``h:<player>``
                            its history, ``board`` the leaderboard, ``done:<room>:<game>`` a
                            game applied; one hash tag, so one slot, per pool
``<prefix>:{tournament:<id>}`` hash: a tournament (``tournaments``): ``v`` version, ``d`` record
``<prefix>:tournaments``    sorted set: ids of tournaments not finished, scored by creation
``<prefix>:{<room>}:guess:<game>:<ply>`` hash: spectators' guesses of the room's next move
                            (``guesses``): a worker's desk name -> its tally, JSON of
                            ``row,col,layer`` -> count; expires
``<prefix>:{deadlines}``    sorted set: correspondence rooms scored by their deadline (``due``)
``<prefix>:player:{<id>}:games`` set: the correspondence rooms of a player (``player_games``)
``<prefix>:{fairplay}:…``   the fair-play ledger (``fairplay``): ``p:<player>`` a hash of
                            ``games``, ``critical``, ``matched``; ``done:<room>:<game>`` a game
                            counted; ``flagged`` a set of player ids; one slot for all
``<prefix>:push:{<id>}``    hash: an identity's push subscriptions (``push``): endpoint ->
                            JSON of its keys and when it was added; one key, one slot
``<prefix>:vapid``          string: the VAPID private key every worker signs pushes with
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from rooms.errors import UnsupportedBackend

__all__ = ["DEFAULT_PREFIX", "KeyLayout", "RoomKeys"]

DEFAULT_PREFIX = "ttt"
_PREFIX = re.compile(r"[A-Za-z0-9_.:-]{1,64}")


@dataclass(frozen=True, slots=True)
class RoomKeys:
    room: str
    log: str
    channel: str


@dataclass(frozen=True, slots=True)
class KeyLayout:
    prefix: str = DEFAULT_PREFIX

    def __post_init__(self) -> None:
        # Braces would change the hash tag and break the one-slot-per-room rule.
        if not isinstance(self.prefix, str) or _PREFIX.fullmatch(self.prefix) is None:
            raise UnsupportedBackend(
                f"redis key prefix {self.prefix!r:.80} must be 1-64 of A-Z a-z 0-9 _ . : -"
            )

    def room(self, room_id: str) -> RoomKeys:
        tag = f"{self.prefix}:{{{room_id}}}"
        return RoomKeys(f"{tag}:room", f"{tag}:log", f"{tag}:ch")

    def channel(self, room_id: str) -> str:
        return f"{self.prefix}:{{{room_id}}}:ch"

    def room_of_channel(self, channel: str) -> str | None:
        """The room id a channel name belongs to (None for a foreign channel)."""
        head, tail = f"{self.prefix}:{{", "}:ch"
        if channel.startswith(head) and channel.endswith(tail):
            return channel[len(head) : -len(tail)]
        return None

    @property
    def lobby(self) -> str:
        return f"{self.prefix}:lobby"

    @property
    def epoch(self) -> str:
        return f"{self.prefix}:epoch"

    def player(self, player_id: str) -> str:
        """The hash of the identity ``player_id`` (its own hash tag: one key, one slot)."""
        return f"{self.prefix}:player:{{{player_id}}}"

    def player_games(self, player_id: str) -> str:
        """The set of ``player_id``'s correspondence rooms (rooms.backends.due)."""
        return f"{self.prefix}:player:{{{player_id}}}:games"

    @property
    def deadlines(self) -> str:
        """The sorted set of correspondence rooms by deadline (rooms.backends.due)."""
        return f"{self.prefix}:{{deadlines}}"

    def rating(self, pool: str, *parts: str) -> str:
        """A key of the rating pool ``pool`` (all of a pool's keys share its hash tag)."""
        return ":".join((f"{self.prefix}:{{rating:{pool}}}", *parts))

    def fairplay(self, *parts: str) -> str:
        """A key of the fair-play ledger (all of its keys share one hash tag)."""
        return ":".join((f"{self.prefix}:{{fairplay}}", *parts))

    def tournament(self, tournament_id: str) -> str:
        """The hash of tournament ``tournament_id`` (its own hash tag: one key, one slot)."""
        return f"{self.prefix}:{{tournament:{tournament_id}}}"

    @property
    def tournaments(self) -> str:
        """The sorted set of the tournaments not finished."""
        return f"{self.prefix}:tournaments"

    def guesses(self, room_id: str, key: str) -> str:
        """The hash of the guesses of ``room_id``'s ply ``key`` (rooms.guesses.ply_key)."""
        return f"{self.prefix}:{{{room_id}}}:guess:{key}"

    def push(self, player_id: str) -> str:
        """The hash of ``player_id``'s push subscriptions (its own hash tag: one slot)."""
        return f"{self.prefix}:push:{{{player_id}}}"

    @property
    def vapid(self) -> str:
        """The VAPID private key the workers share (rooms.push)."""
        return f"{self.prefix}:vapid"

    def slot_epoch(self, tag: str) -> str:
        """The epoch key of the hash slot that ``tag`` hashes to (a Cluster's)."""
        return f"{self.prefix}:{{{tag}}}:epoch"
