"""A room to JSON text and back: what every store keeps, memory and Redis alike.

The text is one compact JSON object (``format`` 2: ids, times, versions, the game as core.codec
writes it, seats, spectators, lifecycle fields), then, when the room has earlier games, a newline
and the archive's text (rooms.room.archive), kept as is and parsed only when the records are read.
Compact JSON holds no raw newline, so the first newline splits the parts. Older layouts (format 1
with inline ``"games"``, records without lifecycle fields) still decode, with defaults.

Decoding replays the game through the engine: a corrupted record raises RoomError, never yields an
impossible room. ``game_number`` is written last so ``game_number_of`` reads it without parsing; it
changes exactly when the archive does, so a bus message may leave an unchanged archive out. Given
``base`` (an earlier decoded state), only the new moves are played and equal seats, spectators and
offers are shared: decoded rooms are only read, and nothing is kept that a full decode would refuse.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from core import BuiltOnce, GameError, decode, encode
from rooms.common.jsontext import dumps, loads
from rooms.errors import ErrorCode, RoomError
from rooms.room.archive import EMPTY, Archive
from rooms.room.clock import Clock
from rooms.room.config import RoomSettings
from rooms.room.pending import Offers
from rooms.room.room import Room
from rooms.room.seats import Seat

__all__ = ["FORMAT", "decode_room", "encode_room", "game_number_of"]

FORMAT = 2
_INLINE_GAMES = 1
"""The format that kept the archive inline, as the object's ``"games"``."""


def encode_room(room: Room) -> str:
    data = {
        "format": FORMAT,
        "room_id": room.room_id,
        "public": room.public,
        "created": room.created,
        "updated": room.updated,
        "version": room.version,
        "game_version": room.game_version,
        "game": encode(room.game),
        "seats": [seat.to_dict() for seat in room.seats],
        "spectators": list(room.spectators),
        "settings": room.settings.to_dict(),
        "clock": room.clock.to_dict() if room.clock is not None else None,
        "turn_started": room.turn_started,
        "started_at": room.started_at,
        "ended_at": room.ended_at,
        "move_times": list(room.move_times),
        "offers": room.offers.to_dict(),
    }
    if room.rating_pending:  # only in rated rooms: other records stay as they were
        data["rating_pending"] = room.rating_pending
    if room.rating_change is not None:
        data["rating_change"] = room.rating_change
    data["game_number"] = room.game_number  # last: game_number_of reads it off the end
    if not room.games:
        return dumps(data)
    return f"{dumps(data)}\n{room.games.text}"


_FORMAT_START = f'{{"format":{FORMAT},'
_GAME_NUMBER = ',"game_number":'


def game_number_of(text: str) -> int | None:
    """The ``game_number`` of a format-2 room text (or of its first part), read off the end of the
    object without parsing it; None when the text does not start and end as ``encode_room`` writes
    it (callers treat that as unknown). A trailing ``,"game_number":<digits>}`` is the object's last
    member: quotes inside strings are escaped, so a quote after a comma opens a key."""
    end = text.find("\n")
    if end < 0:
        end = len(text)
    if not text.startswith(_FORMAT_START) or not text.endswith("}", 0, end):
        return None
    at = text.rfind(_GAME_NUMBER, 0, end)
    if at < 0:
        return None
    digits = text[at + len(_GAME_NUMBER) : end - 1]
    if not (digits.isascii() and digits.isdigit()) or len(digits) > 18:
        return None
    return int(digits)


_settings = BuiltOnce(RoomSettings.from_dict)
"""Room settings built once per distinct stored settings (core.interned)."""


def _time(value: object) -> float | None:
    return float(value) if isinstance(value, int | float) else None


def decode_room(text: str, base: Room | None = None) -> Room:
    """The room ``text`` holds; ``base``, an earlier state of it that is only read, may
    spare replaying the moves it has played already, and building the seats, spectators
    and offers that did not change (see the module)."""
    try:
        head, _, games = text.partition("\n")
        data: Any = loads(head)
        stored_as = data.get("format") if isinstance(data, dict) else None
        if stored_as not in (FORMAT, _INLINE_GAMES):
            raise ValueError(f"not a stored room (format {FORMAT} or {_INLINE_GAMES})")
        game = decode(data["game"], base=base.game if base is not None else None)
        room_id = str(data["room_id"])
        prior = base if base is not None and base.room_id == room_id else None
        state: dict[str, Any] = {
            "room_id": room_id,
            "rules": game.rules,
            "public": bool(data["public"]),
            "created": float(data["created"]),
            "updated": float(data["updated"]),
            "game": game,
            "seats": _seats(data["seats"], prior.seats if prior is not None else ()),
            "spectators": _spectators(data["spectators"], prior),
            "version": int(data["version"]),
            "game_version": int(data["game_version"]),
            "settings": _settings(data.get("settings") or {}),
        }
        clock = data.get("clock")
        state["clock"] = Clock.from_dict(clock) if clock is not None else None
        state["turn_started"] = _time(data.get("turn_started"))
        state["started_at"] = _time(data.get("started_at"))
        state["ended_at"] = _time(data.get("ended_at"))
        move_times = [float(t) for t in data.get("move_times", [])]
        if len(move_times) != game.ply:
            move_times = [state["updated"]] * game.ply  # a record from before move times
        state["move_times"] = move_times
        offers = data.get("offers") or {}
        state["offers"] = (
            prior.offers
            if prior is not None and prior.offers.matches(offers)
            else Offers.from_dict(offers)
        )
        state["game_number"] = int(data.get("game_number", 1))
        state["rating_pending"] = _rating_pending(data.get("rating_pending"))
        change = data.get("rating_change")
        state["rating_change"] = change if isinstance(change, dict) else None
        if stored_as == _INLINE_GAMES:
            state["games"] = Archive.of(data.get("games", []))
        elif games:
            state["games"] = Archive.stored(games)
        else:
            state["games"] = EMPTY
        return Room.restored(state)
    except (GameError, ValueError, KeyError, TypeError, AttributeError, RoomError) as exc:
        # RoomError: stored settings out of range; the store's fault, not the client's
        raise RoomError(ErrorCode.INTERNAL_ERROR, f"stored room cannot be decoded: {exc}") from exc


def _rating_pending(data: Any) -> list[dict[str, Any]]:
    if data is None:
        return []
    if not isinstance(data, list) or not all(isinstance(p, dict) for p in data):
        raise ValueError(f"rating_pending must be a list of objects, got {data!r:.80}")
    return data


def _seats(data: Any, earlier: Sequence[Seat]) -> list[Seat]:
    """The seats ``data`` holds, each one that equals the earlier state's seat in its
    place kept as it is (rooms are only read once decoded, so two may share a seat)."""
    kept = len(earlier)
    return [
        earlier[i] if i < kept and earlier[i].matches(seat) else Seat.from_dict(seat)
        for i, seat in enumerate(data)
    ]


def _spectators(data: Any, prior: Room | None) -> list[str]:
    if prior is not None and data == prior.spectators:  # equal to a list of str: the same
        return prior.spectators
    return [str(conn) for conn in data]
