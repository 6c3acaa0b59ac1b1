"""A room's lifecycle settings, fixed when the room is created and stored with it.

They live in the room record (not in each worker's configuration) so every worker judges
a claim, a flag or a takeback backoff by the same numbers, whatever it was started with.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from rooms.errors import ErrorCode, RoomError

__all__ = ["MAX_WATCH_DELAY", "RoomSettings", "TimeControl", "watch_delay_of"]

MAX_WATCH_DELAY = 60.0
"""The longest delay an organiser may set between the players' game and its spectators'."""


def watch_delay_of(value: object) -> float:
    """A ``watch_delay`` in seconds, 0 to ``MAX_WATCH_DELAY`` (untrusted: RoomError)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        seconds = math.nan
    else:
        seconds = float(value)
    if not 0 <= seconds <= MAX_WATCH_DELAY:  # NaN and infinities fail too
        raise RoomError(
            ErrorCode.INVALID_OPTIONS,
            f"watch_delay: must be a number of seconds from 0 to {MAX_WATCH_DELAY:g}, "
            f"got {value!r:.40}",
            field="watch_delay",
        )
    return seconds


def _seconds(field: str, value: object, *, zero: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        seconds = math.nan
    else:
        seconds = float(value)
    if not math.isfinite(seconds) or seconds < 0 or (seconds == 0 and not zero):
        low = "0 or more" if zero else "above 0"
        raise RoomError(
            ErrorCode.INVALID_OPTIONS,
            f"{field}: must be a number of seconds {low}, got {value!r:.40}",
            field=field,
        )
    if seconds > 24 * 3600:
        raise RoomError(
            ErrorCode.INVALID_OPTIONS, f"{field}: at most one day, got {value!r:.40}", field=field
        )
    return seconds


@dataclass(frozen=True, slots=True)
class TimeControl:
    """``initial`` seconds per player, ``increment`` added after each of their moves, and
    ``first_move``: the limit on each player's first move (the clocks start after it)."""

    initial: float
    increment: float = 0.0
    first_move: float = 30.0

    def __post_init__(self) -> None:
        _seconds("time_control.initial", self.initial)
        _seconds("time_control.increment", self.increment, zero=True)
        _seconds("time_control.first_move", self.first_move)

    def to_dict(self) -> dict[str, float]:
        return {"initial": self.initial, "increment": self.increment, "first_move": self.first_move}

    @classmethod
    def from_dict(cls, data: object, *, first_move: float = 30.0) -> TimeControl:
        """From ``{"initial", "increment"?, "first_move"?}`` (untrusted: RoomError)."""
        if not isinstance(data, Mapping):
            raise RoomError(
                ErrorCode.INVALID_OPTIONS,
                f"time_control: must be an object, got {data!r:.40}",
                field="time_control",
            )
        unknown = set(data) - {"initial", "increment", "first_move"}
        if unknown:
            name = sorted(unknown)[0]
            raise RoomError(
                ErrorCode.INVALID_OPTIONS,
                f"time_control: unknown field {name!r:.40}",
                field=f"time_control.{name}",
            )
        if "initial" not in data:
            raise RoomError(
                ErrorCode.INVALID_OPTIONS,
                "time_control.initial: is required",
                field="time_control.initial",
            )
        return cls(
            initial=_seconds("time_control.initial", data["initial"]),
            increment=_seconds("time_control.increment", data.get("increment", 0), zero=True),
            first_move=_seconds("time_control.first_move", data.get("first_move", first_move)),
        )

    def describe(self) -> str:
        return f"{self.initial:g}+{self.increment:g}"


@dataclass(frozen=True, slots=True)
class RoomSettings:
    """``abandon_grace``/``leave_grace``: seconds an absent seat (one that closed on
    purpose) must be gone before the opponent may claim; ``takeback_backoff``: the wait
    after the first declined takeback (doubling after each); ``bot_budget``: a bot's
    thinking time per move; ``bot_grace``: how long past its budget a bot's move may be
    missing before any worker computes it again; ``pool``: the rating pool of a rated room
    (rooms.ratings.pools; None: the room is not rated); ``tournament``: the tournament whose
    game this room plays (rooms.tournaments: its seats are the two entrants', made with the
    room, and nobody aborts); ``watch_delay``: seconds its spectators see the game behind the
    players (a tournament's option, 0 to ``MAX_WATCH_DELAY``: rooms.room.delayed)."""

    time_control: TimeControl | None = None
    abandon_grace: float = 30.0
    leave_grace: float = 5.0
    takeback_backoff: float = 5.0
    bot_budget: float = 1.0
    bot_grace: float = 2.0
    pool: str | None = None
    tournament: str | None = None
    watch_delay: float = 0.0

    @property
    def rated(self) -> bool:
        return self.pool is not None

    def __post_init__(self) -> None:
        for name in ("abandon_grace", "leave_grace", "takeback_backoff", "bot_budget"):
            _seconds(name, getattr(self, name))
        _seconds("bot_grace", self.bot_grace, zero=True)
        watch_delay_of(self.watch_delay)

    def with_time_control(self, time_control: TimeControl | None) -> RoomSettings:
        return replace(self, time_control=time_control)

    def public(self) -> dict[str, float]:
        return {
            "abandon_grace": self.abandon_grace,
            "leave_grace": self.leave_grace,
            "takeback_backoff": self.takeback_backoff,
            "bot_budget": self.bot_budget,
            "watch_delay": self.watch_delay,
        }

    def to_dict(self) -> dict[str, Any]:
        tc = self.time_control
        data: dict[str, Any] = {
            "time_control": tc.to_dict() if tc is not None else None,
            "abandon_grace": self.abandon_grace,
            "leave_grace": self.leave_grace,
            "takeback_backoff": self.takeback_backoff,
            "bot_budget": self.bot_budget,
            "bot_grace": self.bot_grace,
        }
        if self.pool is not None:  # only then: an unrated room's record stays as it was
            data["pool"] = self.pool
        if self.tournament is not None:
            data["tournament"] = self.tournament
        if self.watch_delay:
            data["watch_delay"] = self.watch_delay
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RoomSettings:
        tc = data.get("time_control")
        defaults = cls()
        return cls(
            time_control=TimeControl(**tc) if tc is not None else None,
            abandon_grace=float(data.get("abandon_grace", defaults.abandon_grace)),
            leave_grace=float(data.get("leave_grace", defaults.leave_grace)),
            takeback_backoff=float(data.get("takeback_backoff", defaults.takeback_backoff)),
            bot_budget=float(data.get("bot_budget", defaults.bot_budget)),
            bot_grace=float(data.get("bot_grace", defaults.bot_grace)),
            pool=str(data["pool"]) if data.get("pool") is not None else None,
            tournament=str(data["tournament"]) if data.get("tournament") is not None else None,
            watch_delay=float(data.get("watch_delay", 0.0)),
        )
