"""Rating pools: which rated games are compared with which (docs/ratings.md).

One pool per game family and time class, named ``<family>.<class>`` (``classic.blitz``). A
family is one of the product's presets (static/js/model/rules.js ``PRESETS``) for two players and
without misère; the time class is the clock's estimated duration, as lichess estimates it:
``initial + 40 × increment`` seconds, below 180 blitz, else rapid; no clock is untimed; days per
move (a correspondence clock, whatever a day counts on the server) is correspondence. Any
other rules are not rated: asking for a rated room with them is ``not_rated``.
"""

from __future__ import annotations

from core import Rules
from rooms.errors import ErrorCode, RoomError
from rooms.room.config import BOT_POOL_PREFIX, TimeControl

__all__ = [
    "BLITZ_BELOW",
    "BOT_POOLS",
    "HUMAN_POOLS",
    "FAMILIES",
    "POOLS",
    "TIME_CLASSES",
    "family_of",
    "pool_of",
    "time_class",
    "valid_pool",
]

FAMILIES: dict[str, Rules] = {
    "classic": Rules(rows=3, cols=3, k=3),
    "connect4": Rules(rows=6, cols=7, k=4, gravity=True),
    "gomoku": Rules(rows=15, cols=15, k=5),
    "3d": Rules(rows=4, cols=4, k=4, layers=4),
}
"""The rated families by the rules they are played with (``early_draw`` aside: it only
declares sooner a draw that is certain, so it does not change who is stronger)."""

TIME_CLASSES = ("untimed", "blitz", "rapid", "correspondence")
BLITZ_BELOW = 180.0
"""Seconds of estimated duration (``initial + 40 × increment``) below which a game is blitz."""
_MOVES = 40
"""The moves per player the estimate counts the increment for (lichess's number)."""

HUMAN_POOLS: tuple[str, ...] = tuple(f"{family}.{tc}" for family in FAMILIES for tc in TIME_CLASSES)
BOT_POOLS: tuple[str, ...] = tuple(BOT_POOL_PREFIX + pool for pool in HUMAN_POOLS)
"""Bot accounts' pools (``bot.classic.blitz``): a bot is never rated against a person, and a
rated game between two bots counts only here (rooms.room.state ``rated_end``)."""
POOLS: tuple[str, ...] = HUMAN_POOLS + BOT_POOLS


def family_of(rules: Rules) -> str | None:
    """The family ``rules`` belong to (None: not a rated family)."""
    plain = rules if not rules.early_draw else _without_early_draw(rules)
    for name, family in FAMILIES.items():
        if plain == family:
            return name
    return None


def _without_early_draw(rules: Rules) -> Rules:
    return Rules(
        rows=rules.rows,
        cols=rules.cols,
        k=rules.k,
        gravity=rules.gravity,
        misere=rules.misere,
        players=rules.players,
        layers=rules.layers,
    )


def time_class(time_control: TimeControl | None) -> str:
    """``untimed``, ``blitz``, ``rapid`` or ``correspondence`` for a room's clock."""
    if time_control is None:
        return "untimed"
    if time_control.correspondence:
        return "correspondence"
    estimate = time_control.initial + _MOVES * time_control.increment
    return "blitz" if estimate < BLITZ_BELOW else "rapid"


def pool_of(rules: Rules, time_control: TimeControl | None, *, bots: bool = False) -> str:
    """The pool a rated room with these rules and clock plays in (``bots``: a room that
    seats bot accounts, so a bot pool); ``not_rated`` when none."""
    family = family_of(rules)
    if family is None:
        known = ", ".join(f"{name} ({rules.describe()})" for name, rules in FAMILIES.items())
        raise RoomError(
            ErrorCode.NOT_RATED,
            f"rated: {rules.describe()} is not a rated game (rated: {known})",
            field="rated",
        )
    pool = f"{family}.{time_class(time_control)}"
    return BOT_POOL_PREFIX + pool if bots else pool


def valid_pool(pool: object) -> bool:
    return isinstance(pool, str) and pool in POOLS
