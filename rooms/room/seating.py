"""Seats and presence: joining, seats reserved for a player who connects later, departures.

A join takes a new seat, resumes one with its token, or watches; quick play reserves a seat for
a player not yet connected. A seat taken with a join key is taken again (a fresh token, the same
mark) by a repeat with that key, until its token first resumes it: the answer that carried the
token may have been lost with a dying worker or socket. A seat taken by a verified guest
identity records its ``player_id`` (checked by the caller before the commit: identity is not
room state); resuming with the token, or taking the seat of a join key again, keeps the seat's.
A tournament game's room is made with both seats (rooms.tournaments): an entrant's verified
identity takes its own seat again (a fresh token), as a join key does, and nobody else sits.
Abandonment rests on presence: when a seat's last connection closes, the seat records since
when it is away and whether it said it was leaving; coming back with the token clears both.
Nothing here ends a game: only the opponent's claim does. A dead worker cannot send ``Leave``;
whichever worker sweeps its expired lease sends ``Evict`` (rooms.presence.sweep), which records
the same departures.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import TYPE_CHECKING

from rooms.common.ids import worker_of
from rooms.errors import ErrorCode, RoomError
from rooms.room.commands import (
    Evict,
    Join,
    JoinReply,
    JoinSpectators,
    Leave,
    LeaveReply,
    LeaveSpectators,
    Reserve,
    Role,
)
from rooms.room.events import PlayerJoined, Presence, Spectators
from rooms.room.guest_names import guest_name
from rooms.room.handled import Handled
from rooms.room.seats import Seat, find_seat, find_seat_by_key, hash_token, new_token

if TYPE_CHECKING:
    from rooms.room.state import RoomState

__all__ = ["evict", "join", "join_spectators", "leave", "leave_spectators", "reserve"]


def _take_seat(
    room: RoomState,
    name: str | None,
    conn: str | None,
    now: float,
    join_key: str | None,
    *,
    player_id: str | None = None,
    bot: bool = False,
) -> Handled:
    """A new seat on the first free mark (seats stay in mark order), and its one event; or,
    when ``join_key`` took a seat already, that seat again; or, for a bot account, the seat
    it holds here already."""
    if join_key is not None:
        keyed = find_seat_by_key(room.seats, join_key)
        if keyed is not None:
            return _take_again(room, keyed, conn, now)
    if bot:
        own = next((s for s in room.seats if s.bot_account and s.player_id == player_id), None)
        if own is not None:
            return _take_again(room, own, conn, now)
        if not room.settings.bots:
            raise RoomError(
                ErrorCode.BOTS_NOT_ALLOWED, "this room does not seat bot accounts; watch instead"
            )
    if len(room.seats) >= room.rules.players:
        raise RoomError(
            ErrorCode.ROOM_FULL,
            f"all {room.rules.players} seats are taken; join as a spectator to watch",
        )
    if room.settings.rated:
        _check_rated_seat(room, player_id, bot)
    taken = {seat.mark for seat in room.seats}
    mark = next(m for m in room.rules.marks if m not in taken)
    token = new_token()
    seat = Seat(
        mark,
        name or guest_name(frozenset(other.name for other in room.seats)),
        "" if bot else hash_token(token),  # a bot's seat: its own token, never a seat's
        [conn] if conn is not None else [],
        away_since=now if conn is None else None,  # reserved: away until it connects
        key_hash=hash_token(join_key) if join_key is not None else None,
        player_id=player_id,
        bot_account=bot,
    )
    room.seats.append(seat)
    room.seats.sort(key=lambda s: room.rules.marks.index(s.mark))
    version = room.bump(now)
    room.game_version = version
    room.start_if_full(now)
    event = PlayerJoined(
        version=version,
        player=room.players()[room.seats.index(seat)],
        status=room.status.value,
        clock=room.clock_view(now),
        offers=room.offers.view(),
        due=room.due(),
    )
    return Handled(event, JoinReply(Role.PLAYER, mark, None if bot else token))


def _check_rated_seat(room: RoomState, player_id: str | None, bot: bool) -> None:
    """A rated room's seat goes to a verified identity, and never to one seated already:
    a rating compares two different players. A rated room that seats bots plays in a bot
    pool, so its seats are bots' only; one that does not is people's only."""
    if room.settings.bots and not bot:
        raise RoomError(
            ErrorCode.BOTS_ONLY, "this rated room plays in a bot pool: only bot accounts sit here"
        )
    if player_id is None:
        raise RoomError(
            ErrorCode.IDENTITY_REQUIRED,
            "this room is rated: join with your player identity (player) to take a seat",
        )
    if any(seat.player_id == player_id for seat in room.seats):
        raise RoomError(
            ErrorCode.IDENTITY_SEATED,
            f"player {player_id!r:.40} holds a seat here already; a rated game needs two players",
        )


def _take_again(room: RoomState, seat: Seat, conn: str | None, now: float) -> Handled:
    """``seat``, taken with the join key presented again, for the same player: the answer that
    carried its token was lost, so a fresh token replaces the stored hash (the lost one stops
    working) and ``conn``, if any, joins the seat beside any connection it still has (the
    half-open original closes by itself). One ``presence`` event. A bot account's seat gets
    no token: the bot's own is the only way to it."""
    token: str | None = None if seat.bot_account else new_token()
    seat.token_hash = hash_token(token) if token is not None else ""
    if conn is not None:
        seat.connections.append(conn)
        seat.away_since, seat.left = None, False
    return Handled(_presence(room, seat, now), JoinReply(Role.PLAYER, seat.mark, token))


def _presence(room: RoomState, seat: Seat, now: float) -> Presence:
    """The new version for the change just made to ``seat``'s presence, and its one event."""
    version = room.bump(now)
    player = room.players()[room.seats.index(seat)]
    return Presence.of(version, player, due=room.due())


def _spectators(room: RoomState, now: float) -> Spectators:
    """The new version for the change just made to the spectators, and its one event."""
    version = room.bump(now)
    return Spectators(version=version, count=len(room.spectators), due=room.due())


def _check_new_connection(
    room: RoomState, conn: str, watching: Collection[str] | None = None
) -> None:
    """ALREADY_JOINED unless ``conn`` is new to the room (``watching``: the spectators, as
    a set when many are checked)."""
    spectators = room.spectators if watching is None else watching
    if room.seat_of(conn) is not None or conn in spectators:
        raise RoomError(ErrorCode.ALREADY_JOINED, f"connection {conn!r} already joined")


def join(room: RoomState, command: Join, now: float) -> Handled:
    _check_new_connection(room, command.conn)
    # The welcome shows the earlier games: a corrupted archive refuses the join before it
    # commits (internal_error), not after. The parse is kept by the archive (shared by the
    # room's copies), so the welcome does not parse it again.
    room.games.records  # noqa: B018
    if command.role is Role.SPECTATOR:
        if command.token is not None:
            raise RoomError(ErrorCode.BAD_MESSAGE, "spectators do not send a token")
        if command.join_key is not None:
            raise RoomError(ErrorCode.BAD_MESSAGE, "spectators do not send a join_key")
        return _watching(room, (command.conn,), now)
    if command.token is not None:
        if command.join_key is not None:
            raise RoomError(ErrorCode.BAD_MESSAGE, "a join sends a token or a join_key, not both")
        seat = find_seat(room.seats, command.token)
        if seat is None:
            raise RoomError(ErrorCode.BAD_TOKEN, "this token holds no seat in this room")
        seat.connections.append(command.conn)
        # the player holds the token now: the join key has served and stops working
        seat.away_since, seat.left, seat.key_hash = None, False, None
        return Handled(_presence(room, seat, now), JoinReply(Role.PLAYER, seat.mark, None))
    if room.settings.tournament is not None:  # a join key adds nothing: each try is the same seat
        return _take_entrant_seat(room, command.player_id, command.conn, now, command.bot)
    return _take_seat(
        room,
        command.name,
        command.conn,
        now,
        command.join_key,
        player_id=command.player_id,
        bot=command.bot,
    )


def _take_entrant_seat(
    room: RoomState, player_id: str | None, conn: str, now: float, bot: bool
) -> Handled:
    """The seat of the entrant ``player_id`` in a tournament game, with a fresh token (a bot
    account's: none, and from now on only its own token takes it)."""
    if player_id is None:
        raise RoomError(
            ErrorCode.IDENTITY_REQUIRED,
            "this is a tournament game: join with your player identity (player) to play",
        )
    seat = next((s for s in room.seats if s.bot is None and s.player_id == player_id), None)
    if seat is None:
        raise RoomError(
            ErrorCode.ROOM_FULL, "this tournament game's seats are its entrants'; watch instead"
        )
    if seat.bot_account and not bot:
        raise RoomError(ErrorCode.BOT_TOKEN_REQUIRED, "this seat is a bot's: join with its token")
    seat.bot_account = seat.bot_account or bot
    return _take_again(room, seat, conn, now)


def join_spectators(room: RoomState, command: JoinSpectators, now: float) -> Handled:
    """Every connection of ``command`` watches from now on: one change, one event."""
    if not command.conns or len(set(command.conns)) < len(command.conns):
        raise RoomError(ErrorCode.BAD_MESSAGE, "spectators join once each")
    watching = set(room.spectators)  # a crowd's joins: no list scan per connection
    for conn in command.conns:
        _check_new_connection(room, conn, watching)
    room.games.records  # noqa: B018 - refuse on a corrupted archive (see join)
    return _watching(room, command.conns, now)


def _watching(room: RoomState, conns: tuple[str, ...], now: float) -> Handled:
    """``conns``, checked new, watch from now on: one change, one ``spectators`` event."""
    room.spectators.extend(conns)
    return Handled(_spectators(room, now), JoinReply(Role.SPECTATOR, None, None))


def reserve(room: RoomState, command: Reserve, now: float) -> Handled:
    if command.again:
        seat = find_seat_by_key(room.seats, command.join_key) if command.join_key else None
        if seat is None:
            raise RoomError(ErrorCode.BAD_TOKEN, "this join key holds no seat in this room")
        return _take_again(room, seat, None, now)
    return _take_seat(
        room,
        command.name,
        None,
        now,
        command.join_key,
        player_id=command.player_id,
        bot=command.bot,
    )


def leave(room: RoomState, command: Leave, now: float) -> Handled:
    seat = room.seat_of(command.conn)
    if seat is not None:
        seat.connections.remove(command.conn)
        if not seat.connections:
            seat.away_since, seat.left = now, command.deliberate
        return Handled(_presence(room, seat, now), LeaveReply(True))
    if command.conn in room.spectators:
        room.spectators.remove(command.conn)
        return Handled(_spectators(room, now), LeaveReply(True))
    return Handled(None, LeaveReply(False))


def leave_spectators(room: RoomState, command: LeaveSpectators, now: float) -> Handled:
    """Those of ``command``'s connections still watching leave: one change, one event (no
    event when none was there: recording it again changes nothing)."""
    gone = set(command.conns)
    staying = [conn for conn in room.spectators if conn not in gone]
    if len(staying) == len(room.spectators):
        return Handled(None, LeaveReply(False))
    room.spectators = staying
    return Handled(_spectators(room, now), LeaveReply(True))


def evict(room: RoomState, command: Evict, now: float) -> Handled:
    """Drop the dead worker's connections, one event's worth per command: the first seat
    holding some (a ``presence`` event; the seat is away from ``now``, not deliberately),
    or else every spectator it held (one ``spectators`` event). No event: none are left,
    so repeating it, or racing another worker doing it, is harmless."""

    def gone(conn: str) -> bool:
        return worker_of(conn) == command.worker

    for seat in room.seats:
        if any(gone(conn) for conn in seat.connections):
            seat.connections = [conn for conn in seat.connections if not gone(conn)]
            if not seat.connections:
                seat.away_since, seat.left = now, False
            return Handled(_presence(room, seat, now), LeaveReply(True))
    staying = [conn for conn in room.spectators if not gone(conn)]
    if len(staying) < len(room.spectators):
        room.spectators = staying
        return Handled(_spectators(room, now), LeaveReply(True))
    return Handled(None, LeaveReply(False))
