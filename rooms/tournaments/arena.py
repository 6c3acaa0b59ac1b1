"""An arena's steps over its record: pair the players who are free, finish when time is up.

Both are changes for ``TournamentService.change`` (a compare-and-set of the whole record), so
two workers pairing at once cannot put a player in two games: the second one's change is
judged again on the record the first one wrote, where those players are no longer free.

A player is free when they are in the arena (not withdrawn), have no game without a result
(being played, or paired and waiting for its room), and their last game ended at least
``REST`` seconds ago, so a person sees their result before being moved to the next game. The
pairing itself is ``core.arena``'s, by points. Pairing stops at ``ends_at``; games paired before
it are played out and count, and the arena finishes once every game has a result.
"""

from __future__ import annotations

from core.arena import ArenaPlayer, pair
from rooms.tournaments.record import ARENA, Game, Status, TournamentRecord

__all__ = ["REST", "finish_if_over", "free_players", "pair_free"]

REST = 3.0
"""Seconds between a player's game ending and their next pairing."""


def free_players(record: TournamentRecord, now: float) -> list[ArenaPlayer]:
    """The entrants who may be paired at ``now``, in entry order."""
    busy: set[str] = set()
    last: dict[str, Game] = {}
    lean: dict[str, int] = {}
    for game in record.games:  # in the order they were paired
        if game.result is None:
            busy.update((game.first, game.second))
        for player, side in ((game.first, 1), (game.second, -1)):
            last[player] = game
            lean[player] = lean.get(player, 0) + side
    points = {s.name: s.points for s in record.standings()}
    free = []
    for entrant in record.entrants:
        if entrant.withdrawn or entrant.id in busy:
            continue
        previous = last.get(entrant.id)
        if previous is not None and previous.ended is not None and now < previous.ended + REST:
            continue
        free.append(
            ArenaPlayer(
                entrant.id,
                points.get(entrant.id, 0),
                lean.get(entrant.id, 0),
                previous.other(entrant.id) if previous is not None else None,
                (previous.ended or 0.0) if previous is not None else 0.0,
            )
        )
    return free


def pair_free(record: TournamentRecord, now: float) -> bool:
    """Pair whoever is free (one new "round" of games, their rooms made next); False when
    there is nobody to pair or the arena is not pairing any more."""
    if record.kind != ARENA or record.status is not Status.RUNNING:
        return False
    if record.ends_at is None or now >= record.ends_at:
        return False
    free = free_players(record, now)
    in_play = sum(1 for e in record.entrants if not e.withdrawn)
    games = pair(free, everyone_free=len(free) == in_play)
    if not games:
        return False
    record.round += 1
    record.rounds = record.round
    record.games.extend(
        Game(record.round, index, first, second) for index, (first, second) in enumerate(games)
    )
    return True


def finish_if_over(record: TournamentRecord, now: float) -> bool:
    """Finish the arena once its time is up and every game paired has a result."""
    if record.kind != ARENA or record.status is not Status.RUNNING:
        return False
    if record.ends_at is None or now < record.ends_at:
        return False
    if any(g.result is None for g in record.games):
        return False
    record.status = Status.FINISHED
    return True
