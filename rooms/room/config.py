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

__all__ = [
    "BOT_POOL_PREFIX",
    "CORRESPONDENCE_DAYS",
    "DAY",
    "MAX_WATCH_DELAY",
    "RoomSettings",
    "TimeControl",
    "watch_delay_of",
]

DAY = 24 * 3600.0
"""A day of a correspondence time control, in seconds, unless the server scales it (the
``correspondence_day`` setting, a test and operations knob: docs/operations.md)."""

CORRESPONDENCE_DAYS = (1, 2, 3, 7)
"""The days per move a correspondence game may give each player."""

BOT_POOL_PREFIX = "bot."
"""Bot accounts' rating pools are the people's names behind it (``bot.classic.blitz``): a
bot's rating is never compared with a person's (rooms.ratings.pools)."""

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


def _seconds(field: str, value: object, *, zero: bool = False, most: float = DAY) -> float:
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
    if seconds > most:
        limit = "one day" if most == DAY else f"{most:g} seconds"
        raise RoomError(
            ErrorCode.INVALID_OPTIONS, f"{field}: at most {limit}, got {value!r:.40}", field=field
        )
    return seconds


_LONGEST = max(CORRESPONDENCE_DAYS) * DAY
"""The longest allowance a move may have (a correspondence game's): the bound of a clock and
of the graces that follow it."""


def _days(value: object) -> int:
    if isinstance(value, bool) or value not in CORRESPONDENCE_DAYS:
        known = ", ".join(map(str, CORRESPONDENCE_DAYS))
        raise RoomError(
            ErrorCode.INVALID_OPTIONS,
            f"time_control.days: must be one of {known}, got {value!r:.40}",
            field="time_control.days",
        )
    assert isinstance(value, int)
    return value


@dataclass(frozen=True, slots=True)
class TimeControl:
    """``initial`` seconds per player, ``increment`` added after each of their moves, and
    ``first_move``: the limit on each player's first move (the clocks start after it).

    ``days`` (1, 2, 3 or 7; 0: a live clock) makes a correspondence control: each move has
    ``initial`` seconds, the days as the server counted them when the room was made (stored,
    so every worker agrees), and the clock goes back to the whole allowance after every move
    (rooms.room.clock); ``increment`` is 0 and ``first_move`` the allowance."""

    initial: float
    increment: float = 0.0
    first_move: float = 30.0
    days: int = 0

    def __post_init__(self) -> None:
        most = _LONGEST if self.days else DAY
        if self.days:
            _days(self.days)
        _seconds("time_control.initial", self.initial, most=most)
        _seconds("time_control.increment", self.increment, zero=True)
        _seconds("time_control.first_move", self.first_move, most=most)

    @property
    def correspondence(self) -> bool:
        """Whether this is a correspondence control (days per move)."""
        return self.days > 0

    @classmethod
    def per_move(cls, days: int, *, day: float = DAY) -> TimeControl:
        """A correspondence control of ``days`` per move, a day being ``day`` seconds."""
        if not (isinstance(day, int | float) and 0 < day <= DAY):
            raise ValueError(f"a day must be above 0 and at most {DAY:g} seconds, not {day!r}")
        allowance = _days(days) * float(day)
        return cls(initial=allowance, increment=0.0, first_move=allowance, days=days)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "initial": self.initial,
            "increment": self.increment,
            "first_move": self.first_move,
        }
        if self.days:  # only then: a live clock's record stays as it was
            data["days"] = self.days
        return data

    @classmethod
    def from_dict(cls, data: object, *, first_move: float = 30.0, day: float = DAY) -> TimeControl:
        """From ``{"initial", "increment"?, "first_move"?}`` or ``{"days"}`` (untrusted:
        RoomError); ``day``: the seconds a correspondence day counts here."""
        if not isinstance(data, Mapping):
            raise RoomError(
                ErrorCode.INVALID_OPTIONS,
                f"time_control: must be an object, got {data!r:.40}",
                field="time_control",
            )
        unknown = set(data) - {"initial", "increment", "first_move", "days"}
        if unknown:
            name = sorted(unknown)[0]
            raise RoomError(
                ErrorCode.INVALID_OPTIONS,
                f"time_control: unknown field {name!r:.40}",
                field=f"time_control.{name}",
            )
        if "days" in data:
            if len(data) > 1:
                other = sorted(set(data) - {"days"})[0]
                raise RoomError(
                    ErrorCode.INVALID_OPTIONS,
                    f"time_control.{other}: a correspondence control has days alone",
                    field=f"time_control.{other}",
                )
            return cls.per_move(_days(data["days"]), day=day)
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
        if self.days:
            return f"{self.days}d/move"
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
    players (a tournament's option, 0 to ``MAX_WATCH_DELAY``: rooms.room.delayed); ``bots``:
    whether bot accounts (rooms.bots) may take its seats (a rated room with it plays in a bot
    pool, and only bots sit there)."""

    time_control: TimeControl | None = None
    abandon_grace: float = 30.0
    leave_grace: float = 5.0
    takeback_backoff: float = 5.0
    bot_budget: float = 1.0
    bot_grace: float = 2.0
    pool: str | None = None
    tournament: str | None = None
    watch_delay: float = 0.0
    bots: bool = False

    @property
    def rated(self) -> bool:
        return self.pool is not None

    def __post_init__(self) -> None:
        for name in ("abandon_grace", "leave_grace"):  # a correspondence game's: its allowance
            _seconds(name, getattr(self, name), most=_LONGEST)
        for name in ("takeback_backoff", "bot_budget"):
            _seconds(name, getattr(self, name))
        _seconds("bot_grace", self.bot_grace, zero=True)
        watch_delay_of(self.watch_delay)

    def with_time_control(self, time_control: TimeControl | None) -> RoomSettings:
        """These settings with ``time_control``; a correspondence one also makes the graces
        its allowance, not seconds (absence never ends such a game anyway: its deadline does,
        rooms.room.endings; the graces only stay consistent with it)."""
        if time_control is not None and time_control.correspondence:
            allowance = time_control.initial
            return replace(
                self, time_control=time_control, abandon_grace=allowance, leave_grace=allowance
            )
        return replace(self, time_control=time_control)

    def public(self) -> dict[str, float | bool]:
        return {
            "abandon_grace": self.abandon_grace,
            "leave_grace": self.leave_grace,
            "takeback_backoff": self.takeback_backoff,
            "bot_budget": self.bot_budget,
            "watch_delay": self.watch_delay,
            "bots": self.bots,
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
        if self.bots:
            data["bots"] = True
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
            bots=bool(data.get("bots", False)),
        )
