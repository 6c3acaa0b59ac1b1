"""A knockout's seeding ratings: each identity's rating in the pool of the tournament's game.

Read from the rating book before the start's compare-and-set change (which is sans I/O). A
game outside the rated families, a bot, or an identity not yet rated in the pool has no
rating here, and is seeded at ``rooms.tournaments.knockout.DEFAULT_RATING``.
"""

from __future__ import annotations

from core import Rules
from rooms.ratings import RatingBook, family_of, pool_of
from rooms.room.config import TimeControl
from rooms.tournaments.record import KNOCKOUT, TournamentRecord

__all__ = ["seeding_ratings"]


async def seeding_ratings(record: TournamentRecord, book: RatingBook | None) -> dict[str, float]:
    """The entrants' ratings (rated identities only); empty for any other kind."""
    rules = Rules.from_dict(record.rules)
    if record.kind != KNOCKOUT or book is None or family_of(rules) is None:
        return {}
    pool = pool_of(rules, TimeControl.from_dict(record.time_control))
    ratings: dict[str, float] = {}
    for entrant in record.entrants:
        if entrant.bot is None:
            standing = await book.standing(pool, entrant.id)
            if standing is not None:
                ratings[entrant.id] = standing.rating.rating
    return ratings
