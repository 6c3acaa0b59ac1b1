"""Draw offers and takeback requests: the consent of the other side, kept in the room.

A draw offer lapses when the offerer moves; a seat may offer once per own move (no spam).
A takeback request lapses when anyone moves; accepting rewinds until the requester is to
move again; each declined request doubles the wait before the same seat may ask again.
Against a bot, a takeback is granted at once and a draw offer is refused.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, TypeVar

from core import GameError, Move

from . import events
from .commands import Answer, Done, Offer, OfferKind
from .errors import ErrorCode, RoomError, from_game_error
from .handled import Handled

if TYPE_CHECKING:
    from .room import Room

__all__ = ["Offers", "answer", "offer"]

T = TypeVar("T", int, float)


@dataclass(slots=True)
class Offers:
    draw: str | None = None
    draw_moves: dict[str, int] = field(default_factory=dict)
    """Per mark: how many moves it had made when it last offered a draw."""
    takeback: str | None = None
    takeback_declines: dict[str, int] = field(default_factory=dict)
    takeback_not_before: dict[str, float] = field(default_factory=dict)
    rematch: list[str] = field(default_factory=list)

    def view(self) -> dict[str, Any]:
        return {"draw": self.draw, "takeback": self.takeback, "rematch": list(self.rematch)}

    def on_move(self, mark: str) -> None:
        """A move landed: the mover's own draw offer lapses, any takeback request too."""
        if self.draw == mark:
            self.draw = None
        self.takeback = None

    def on_end(self) -> None:
        self.draw = None
        self.takeback = None

    def copy(self) -> Offers:
        """Independent offers in the same state (their dicts and list copied)."""
        return Offers(self.draw, self.draw_moves.copy(), self.takeback,
                      self.takeback_declines.copy(), self.takeback_not_before.copy(),
                      self.rematch.copy())

    def to_dict(self) -> dict[str, Any]:
        return {
            "draw": self.draw,
            "draw_moves": dict(self.draw_moves),
            "takeback": self.takeback,
            "takeback_declines": dict(self.takeback_declines),
            "takeback_not_before": dict(self.takeback_not_before),
            "rematch": list(self.rematch),
        }

    def matches(self, data: Any) -> bool:
        """Whether ``from_dict(data)`` would build offers equal to these (False when not,
        or when it would refuse ``data``): a decode keeps the earlier state's offers then
        (rooms.codec; ``from_dict`` converts each value to the type held here)."""
        return (
            type(data) is dict
            and data.get("draw") == self.draw
            and data.get("takeback") == self.takeback
            and data.get("rematch", []) == self.rematch
            and data.get("draw_moves", {}) == self.draw_moves
            and data.get("takeback_declines", {}) == self.takeback_declines
            and data.get("takeback_not_before", {}) == self.takeback_not_before
        )

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Offers:
        # positional, and a part copied whole when its types are already the ones built
        # (always, for a record this code wrote): every decode of a room builds its offers
        draw, takeback = data.get("draw"), data.get("takeback")
        return cls(
            str(draw) if draw is not None else None,
            _per_mark(data.get("draw_moves", {}), int),
            str(takeback) if takeback is not None else None,
            _per_mark(data.get("takeback_declines", {}), int),
            _per_mark(data.get("takeback_not_before", {}), float),
            _marks(data.get("rematch", [])),
        )


def _per_mark(data: Any, kind: type[T]) -> dict[str, T]:
    """``{str(k): kind(v) for k, v in data.items()}``: ``data`` copied as it is when its
    keys are strings and its values of exactly ``kind`` (a ``true`` is converted, as the
    comprehension converts it)."""
    items = data.items()
    if not data:
        return {}
    if set(map(type, data)) <= _STR and set(map(type, data.values())) == {kind}:
        return dict(data)
    return {str(k): kind(v) for k, v in items}


def _marks(data: Any) -> list[str]:
    """``[str(m) for m in data]``, copied as it is when it is a list of strings only."""
    if type(data) is list and set(map(type, data)) <= _STR:
        return data.copy()
    return [str(m) for m in data]


_STR = {str}


def offer(room: Room, command: Offer, now: float) -> Handled:
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
        return room.changed(events.offered(room.bump(now), "draw", seat.mark), now)
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
    return room.changed(events.offered(room.bump(now), "takeback", seat.mark), now)


def answer(room: Room, command: Answer, now: float) -> Handled:
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
        return room.changed(events.declined(room.bump(now), "draw", seat.mark), now)
    if command.accept:
        return _take_back(room, pending, by=seat.mark, now=now)
    offers.takeback = None
    declines = offers.takeback_declines.get(pending, 0) + 1
    offers.takeback_declines[pending] = declines
    backoff = room.settings.takeback_backoff * 2 ** (declines - 1)
    offers.takeback_not_before[pending] = now + backoff
    return room.changed(events.declined(room.bump(now), "takeback", seat.mark), now)


def _take_back(room: Room, requester: str, *, by: str, now: float) -> Handled:
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
    event = events.undone(
        version, by=by, moves=taken, board=game.board.text, ply=game.ply, turn=game.turn,
        status=room.status.value,
    )
    return Handled(room.with_state(event, now), Done(version))
