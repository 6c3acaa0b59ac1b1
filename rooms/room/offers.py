"""Draw offers and takeback requests: the consent of the other side, kept in the room.

A draw offer lapses when the offerer moves; a seat may offer once per own move (no spam).
A takeback request lapses when anyone moves; accepting rewinds until the requester is to
move again; each declined request doubles the wait before the same seat may ask again.
Against a bot, a takeback is granted at once and a draw offer is refused.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from core import GameError, Move
from rooms.errors import ErrorCode, RoomError, from_game_error
from rooms.room.commands import Answer, Offer, OfferKind
from rooms.room.events import (
    DrawDeclined,
    DrawOffered,
    TakebackDeclined,
    TakebackOffered,
    Undone,
)
from rooms.room.handled import Handled

if TYPE_CHECKING:
    from rooms.room.state import RoomState

__all__ = ["answer", "offer"]


def offer(room: RoomState, command: Offer, now: float) -> Handled:
    seat = room.seated(command.conn)
    room.require_playing()
    offers = room.offers
    if command.kind is OfferKind.DRAW:
        if offers.draw is not None:
            raise RoomError(ErrorCode.OFFER_PENDING, f"{offers.draw} already offered a draw")
        if any(s.bot is not None for s in room.seats if s is not seat):
            raise RoomError(ErrorCode.BOT_OPPONENT, "bots do not take draw offers; play on")
        made = room.own_moves(seat.mark)
        last = offers.draw_moves.get(seat.mark)
        if last is not None and made <= last:
            raise RoomError(
                ErrorCode.TOO_SOON, "one draw offer per move: make a move before offering again"
            )
        offers.draw = seat.mark
        offers.draw_moves[seat.mark] = made
        version = room.bump(now)
        return room.changed(
            DrawOffered(
                version=version,
                by=seat.mark,
                clock=room.clock_view(now),
                offers=offers.view(),
                due=room.due(),
            )
        )
    if room.settings.rated or room.settings.tournament is not None:
        raise RoomError(
            ErrorCode.RATED_GAME,
            "this game counts (it is rated, or a tournament's): moves cannot be taken back",
        )
    if offers.takeback is not None:
        raise RoomError(ErrorCode.OFFER_PENDING, f"{offers.takeback} already asked for a takeback")
    if room.own_moves(seat.mark) == 0:
        raise RoomError(ErrorCode.NOTHING_TO_TAKE_BACK, f"{seat.mark} has no move to take back")
    not_before = offers.takeback_not_before.get(seat.mark)
    if not_before is not None and now < not_before:
        wait = not_before - now
        raise RoomError(
            ErrorCode.TOO_SOON,
            f"your last takeback was declined; ask again in {wait:.1f} s",
            retry_after=round(wait, 3),
        )
    if any(s.bot is not None for s in room.seats if s is not seat):
        return _take_back(room, seat.mark, by=seat.mark, now=now)  # a bot always consents
    offers.takeback = seat.mark
    version = room.bump(now)
    return room.changed(
        TakebackOffered(
            version=version,
            by=seat.mark,
            clock=room.clock_view(now),
            offers=offers.view(),
            due=room.due(),
        )
    )


def answer(room: RoomState, command: Answer, now: float) -> Handled:
    seat = room.seated(command.conn)
    room.require_playing()
    offers = room.offers
    pending = offers.draw if command.kind is OfferKind.DRAW else offers.takeback
    if pending is None or pending == seat.mark:
        what = "draw offer" if command.kind is OfferKind.DRAW else "takeback request"
        whose = "your own " if pending == seat.mark else "no "
        raise RoomError(ErrorCode.NO_OFFER, f"there is {whose}{what} to answer")
    if command.kind is OfferKind.DRAW:
        if command.accept:
            return room.end(room.game.agree_draw, now, by=seat.mark)
        offers.draw = None
        version = room.bump(now)
        return room.changed(
            DrawDeclined(
                version=version,
                by=seat.mark,
                clock=room.clock_view(now),
                offers=offers.view(),
                due=room.due(),
            )
        )
    if command.accept:
        return _take_back(room, pending, by=seat.mark, now=now)
    offers.takeback = None
    declines = offers.takeback_declines.get(pending, 0) + 1
    offers.takeback_declines[pending] = declines
    backoff = room.settings.takeback_backoff * 2 ** (declines - 1)
    offers.takeback_not_before[pending] = now + backoff
    version = room.bump(now)
    return room.changed(
        TakebackDeclined(
            version=version,
            by=seat.mark,
            clock=room.clock_view(now),
            offers=offers.view(),
            due=room.due(),
        )
    )


def _take_back(room: RoomState, requester: str, *, by: str, now: float) -> Handled:
    """Undo until the requester's last move is gone (so it is the requester's turn)."""
    game = room.game
    marks = room.rules.marks
    room.charge_running(now, increment=False)  # time spent thinking stays spent
    taken: list[tuple[str, Move]] = []
    try:
        while True:
            mark = marks[(game.ply - 1) % len(marks)]
            taken.append((mark, game.undo()))
            room.move_times.pop()
            if mark == requester:
                break
    except GameError as exc:  # unreachable: the requester has a move on the board
        raise from_game_error(exc) from exc
    room.offers.takeback = None
    room.turn_started = now
    version = room.bump(now)
    room.game_version = version
    event = Undone(
        version=version,
        by=by,
        moves=[{"mark": mark, **move.to_dict()} for mark, move in taken],
        board=game.board.text,
        ply=game.ply,
        turn=game.turn,
        status=room.status.value,
        clock=room.clock_view(now),
        offers=room.offers.view(),
        due=room.due(),
    )
    return room.changed(event)
