"""Commands a room handles and the replies it gives (plain values, no I/O).

A command names the connection it comes from; the room knows which seat (if any) each
connection holds, so nothing a client says about itself is trusted. ``Reserve``, ``Tick``,
``BotMove``, ``Evict`` and ``RatingsApplied`` come from the server itself (quick play, timers,
bots, the presence sweep, ratings), never from a client message.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from core import Move, MoveRequest

__all__ = [
    "Abort",
    "Answer",
    "BotMove",
    "Claim",
    "Command",
    "Done",
    "Evict",
    "Join",
    "JoinReply",
    "JoinSpectators",
    "Leave",
    "LeaveReply",
    "LeaveSpectators",
    "MoveReply",
    "Offer",
    "OfferKind",
    "PlayMove",
    "RatingsApplied",
    "Rematch",
    "Reply",
    "Reserve",
    "Resign",
    "Retire",
    "Role",
    "Tick",
]


class Role(StrEnum):
    PLAYER = "player"
    SPECTATOR = "spectator"


class OfferKind(StrEnum):
    DRAW = "draw"
    TAKEBACK = "takeback"


@dataclass(frozen=True, slots=True)
class Join:
    """Take the next free seat (player, no token), resume a seat (player, token), or watch.

    ``join_key`` (player, no token) makes taking a seat idempotent: the seat taken with it is
    taken again, with a fresh token, until its token has resumed it (rooms.room.seating).
    ``player_id`` (player, no token) links a new seat to a guest identity that the caller has
    verified already (rooms.players): the room only records it. ``bot``: that identity is a
    bot account whose token the caller checked (rooms.bots): it takes its own seat again."""

    conn: str
    role: Role
    name: str | None = None
    token: str | None = None
    join_key: str | None = None
    player_id: str | None = None
    bot: bool = False

    def __repr__(self) -> str:  # never print a token or a join key
        token = "<token>" if self.token is not None else None
        key = "<key>" if self.join_key is not None else None
        return (
            f"Join(conn={self.conn!r}, role={self.role.value!r}, name={self.name!r}, "
            f"token={token}, join_key={key}, player_id={self.player_id!r}, bot={self.bot!r})"
        )


@dataclass(frozen=True, slots=True)
class JoinSpectators:
    """Several connections start watching, in one change and one ``spectators`` event (a
    worker's spectators arriving together: rooms.presence.rooms)."""

    conns: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Reserve:
    """Take the next free seat for a player who is not connected yet (quick play): the
    token is handed over HTTP and the player joins with it.

    With ``join_key``, the seat taken with that key (not yet resumed with its token) is
    taken again with a fresh token instead; ``again`` only does that, and is refused with
    ``bad_token`` when no seat holds the key (a retried request whose room is known).
    ``player_id`` links a new seat to a verified identity, as for ``Join``; ``bot`` says
    that identity is a bot account's (its seat gets no token: the bot joins with its own)."""

    name: str | None = None
    join_key: str | None = None
    again: bool = False
    player_id: str | None = None
    bot: bool = False

    def __repr__(self) -> str:  # never print a join key
        key = "<key>" if self.join_key is not None else None
        return (
            f"Reserve(name={self.name!r}, join_key={key}, again={self.again!r}, "
            f"player_id={self.player_id!r}, bot={self.bot!r})"
        )


@dataclass(frozen=True, slots=True)
class Leave:
    """A connection closed; ``deliberate`` when the client said ``leave`` first."""

    conn: str
    deliberate: bool = False


@dataclass(frozen=True, slots=True)
class LeaveSpectators:
    """Several spectators' connections closed, recorded in one change and one event."""

    conns: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Evict:
    """The worker ``worker`` died (its presence lease expired): its connections are gone.
    One seat's connections, or else all of its spectators, per command (one event each);
    nothing is left when the room answers with no event. Only the server sends it."""

    worker: str


@dataclass(frozen=True, slots=True)
class PlayMove:
    conn: str
    request: MoveRequest
    version: int
    move_id: str


@dataclass(frozen=True, slots=True)
class BotMove:
    """The bot of seat ``mark`` plays ``move``, computed for the game at ``game_version``
    (a move computed for an older game is stale: two workers computing it land it once)."""

    mark: str
    move: Move
    game_version: int
    proven: bool | None = None
    """False: the bot's level proves its moves and found no proof for this one in time."""


@dataclass(frozen=True, slots=True)
class Resign:
    conn: str


@dataclass(frozen=True, slots=True)
class Abort:
    conn: str


@dataclass(frozen=True, slots=True)
class Offer:
    """Offer a draw or ask for a takeback."""

    conn: str
    kind: OfferKind


@dataclass(frozen=True, slots=True)
class Answer:
    """Accept (``accept``) or decline the pending offer of ``kind``."""

    conn: str
    kind: OfferKind
    accept: bool


@dataclass(frozen=True, slots=True)
class Rematch:
    conn: str


@dataclass(frozen=True, slots=True)
class Claim:
    """Claim the win (or a draw, ``draw``) against an absent or flagged seat (``mark``:
    which one; None: whichever qualifies)."""

    conn: str
    draw: bool = False
    mark: str | None = None


@dataclass(frozen=True, slots=True)
class Retire:
    """Withdraw a room that never started (quick play opened it but lost the race to
    another request's room): its game is aborted and it leaves the listing. Nothing
    happens to a room that already started."""


@dataclass(frozen=True, slots=True)
class Tick:
    """A timer saw a deadline pass: flag the side to move, or abort a game whose first move
    did not come. Harmless when nothing is due (a stale tick changes nothing)."""


@dataclass(frozen=True, slots=True)
class RatingsApplied:
    """The ratings of the room's rated game ``game_number`` were applied (rooms.ratings), with
    ``change``: per mark, its player's rating before and after. Only the server sends it; a
    repeat (another worker applied them too) changes nothing."""

    game_number: int
    change: dict[str, dict[str, object]]


Command = (
    Join
    | JoinSpectators
    | Reserve
    | Leave
    | LeaveSpectators
    | Evict
    | PlayMove
    | BotMove
    | Resign
    | Abort
    | Offer
    | Answer
    | Rematch
    | Claim
    | Tick
    | Retire
    | RatingsApplied
)


@dataclass(frozen=True, slots=True)
class JoinReply:
    """``token`` is set only when the join took a seat: a new one, or the seat of its join key
    again (a fresh token); the only times a token is revealed."""

    role: Role
    mark: str | None
    token: str | None

    def __repr__(self) -> str:
        token = "<token>" if self.token is not None else None
        return f"JoinReply(role={self.role.value!r}, mark={self.mark!r}, token={token})"


@dataclass(frozen=True, slots=True)
class MoveReply:
    move_id: str
    version: int
    duplicate: bool


@dataclass(frozen=True, slots=True)
class LeaveReply:
    left: bool


@dataclass(frozen=True, slots=True)
class Done:
    """A lifecycle command was done at ``version`` (None: it changed nothing, a stale tick)."""

    version: int | None


Reply = JoinReply | MoveReply | LeaveReply | Done
