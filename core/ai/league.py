"""Bots against bots: N games per pair through ``core.tournament``'s round robin.

A double round robin gives every pair two games, colours swapped; ``games`` per pair are
played as double round robins (the last one single when ``games`` is odd), and their
tables are added up. Each level is one bot for the whole league, seeded from ``seed`` and
its place in ``levels`` (so a league under node budgets replays exactly, and the perfect
bot's transposition table serves every game it plays).

With ``audit`` levels, every game is checked afterwards move by move by the solver
(``core.ai.audit``): how many of each audited level's moves threw a result away (left a won
or drawn position for a worse one), and how many the check's budget did not decide.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import GameError
from ..round_robin import Pairing
from ..rules import Rules
from ..tournament import Points, Tournament
from .audit import Audit, audit_game
from .budget import Budget
from .factory import make_bot
from .perfect import PerfectBot
from .selfplay import play_game
from .solver import Solver

__all__ = [
    "AUDIT_BUDGET",
    "AuditCount",
    "BotStanding",
    "League",
    "Match",
    "ProofCount",
    "Score",
    "run_league",
]

AUDIT_BUDGET = Budget(seconds=5.0)  # per audited move


@dataclass(frozen=True, slots=True)
class BotStanding:
    rank: int
    level: str
    played: int
    wins: int
    draws: int
    losses: int
    points: int

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "bot": self.level,
            "played": self.played,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "points": self.points,
        }


@dataclass(frozen=True, slots=True)
class Score:
    """Wins, draws and losses, from one side's point of view."""

    wins: int = 0
    draws: int = 0
    losses: int = 0

    def reversed(self) -> Score:
        """The same games seen from the other side."""
        return Score(self.losses, self.draws, self.wins)

    def __add__(self, other: Score) -> Score:
        return Score(self.wins + other.wins, self.draws + other.draws, self.losses + other.losses)

    def to_dict(self) -> dict[str, int]:
        return {"wins": self.wins, "draws": self.draws, "losses": self.losses}


@dataclass(frozen=True, slots=True)
class Match:
    """Two levels' games against each other, from ``level``'s side, split by who moved
    first: a game's value depends on it (Connect Four is a first player's win), so a total
    alone hides whether a bot won every game it started."""

    level: str
    opponent: str
    as_first: Score  # the games ``level`` started
    as_second: Score  # the games ``opponent`` started

    @property
    def total(self) -> Score:
        return self.as_first + self.as_second

    @property
    def wins(self) -> int:
        return self.total.wins

    @property
    def draws(self) -> int:
        return self.total.draws

    @property
    def losses(self) -> int:
        return self.total.losses

    def reversed(self) -> Match:
        """The same games from ``opponent``'s side."""
        return Match(self.opponent, self.level, self.as_second.reversed(), self.as_first.reversed())

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.level,
            "opponent": self.opponent,
            **self.total.to_dict(),
            "as_first": self.as_first.to_dict(),
            "as_second": self.as_second.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class ProofCount:
    """How many of a solving bot's moves rested on a proof (the perfect bot says so)."""

    level: str
    moves: int
    unproven: int

    def to_dict(self) -> dict[str, Any]:
        return {"bot": self.level, "moves": self.moves, "unproven": self.unproven}


@dataclass(frozen=True, slots=True)
class AuditCount:
    """A level's moves checked after its games: thrown-away results and undecided moves, in
    the games it moved first and in those it moved second (on a board the first player
    wins, the second's results are there to throw away only after the first player errs)."""

    level: str
    as_first: Audit
    as_second: Audit

    @property
    def audit(self) -> Audit:
        return self.as_first + self.as_second

    def to_dict(self) -> dict[str, Any]:
        return {
            "bot": self.level,
            **self.audit.to_dict(),
            "as_first": self.as_first.to_dict(),
            "as_second": self.as_second.to_dict(),
        }


@dataclass(frozen=True, slots=True)
class League:
    standings: tuple[BotStanding, ...]  # best first
    matches: tuple[Match, ...]  # one per pair, in the order of ``levels``
    proofs: tuple[ProofCount, ...] = ()  # one per level whose bot proves its moves
    audits: tuple[AuditCount, ...] = ()  # one per audited level

    def match(self, level: str, opponent: str) -> Match:
        """The score of ``level`` against ``opponent`` (either order)."""
        for m in self.matches:
            if (m.level, m.opponent) == (level, opponent):
                return m
            if (m.opponent, m.level) == (level, opponent):
                return m.reversed()
        raise GameError(f"{level!r} and {opponent!r} did not meet in this league")

    def to_dict(self) -> dict[str, Any]:
        return {
            "standings": [s.to_dict() for s in self.standings],
            "matches": [m.to_dict() for m in self.matches],
            "proofs": [p.to_dict() for p in self.proofs],
            "audits": [a.to_dict() for a in self.audits],
        }


def run_league(
    rules: Rules,
    levels: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    budgets: Mapping[str, Budget] | None = None,
    points: Points | None = None,
    audit: Collection[str] = (),
    audit_budget: Budget = AUDIT_BUDGET,
) -> League:
    """Every pair of ``levels`` plays ``games`` games: the summed table and each pair's score.

    ``budgets`` maps a level to its thinking budget (default: the bots' one second);
    ``audit`` names the levels whose moves are checked afterwards, ``audit_budget`` a move.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise GameError(f"games per pair must be a whole number ≥ 1, got {games!r}")
    if rules.players != 2:
        raise GameError(f"a league plays two-player games; these rules have {rules.players}")
    budgets = budgets or {}
    unknown = sorted(set(audit) - set(levels))
    if unknown:
        raise GameError(f"cannot audit {', '.join(map(repr, unknown))}: not in this league")
    # each audited level's moves: [in games it moved first, in games it moved second]
    audits = {level: [Audit(0, 0, 0), Audit(0, 0, 0)] for level in levels if level in audit}
    auditor = Solver(rules) if audits else None
    bots = {
        level: make_bot(level, seed=seed * 1_009 + place, budget=budgets.get(level))
        for place, level in enumerate(levels)
    }
    totals: dict[str, list[int]] = {}  # level -> [played, wins, draws, losses, points]
    # each pair's score from its first level's side: [as first mover, as second mover]
    pairs = {(a, b): [Score(), Score()] for i, a in enumerate(levels) for b in levels[i + 1 :]}
    remaining = games
    while remaining > 0:
        double = remaining >= 2
        # a bye is no game: with an odd number of levels it must not score
        tournament = Tournament(levels, double=double, points=points or Points(bye=0))

        def play(pairing: Pairing) -> str | None:
            game = play_game(rules, [bots[level] for level in pairing.players])
            outcome = game.outcome
            assert outcome is not None
            for side, (mark, level) in enumerate(zip(rules.marks, pairing.players, strict=True)):
                if level in audits:  # the first mark moves first
                    audits[level][side] += audit_game(
                        rules, game.history_indices, mark, budget=audit_budget, solver=auditor
                    )
            winner = None if outcome.winner is None else pairing.player(outcome.winner)
            key = pairing.players if pairing.players in pairs else pairing.players[::-1]
            result = Score(
                wins=int(winner == key[0]), draws=int(winner is None), losses=int(winner == key[1])
            )
            started = pairing.players[0] == key[0]  # the first mark moves first
            pairs[key][0 if started else 1] += result
            return winner

        for standing in tournament.run(play):
            row = totals.setdefault(standing.name, [0, 0, 0, 0, 0])
            for i, value in enumerate(
                (standing.played, standing.wins, standing.draws, standing.losses, standing.points)
            ):
                row[i] += value
        remaining -= 2 if double else 1
    order = sorted(totals, key=lambda level: (-totals[level][4], -totals[level][1], level))
    standings = tuple(
        BotStanding(rank, level, *totals[level]) for rank, level in enumerate(order, start=1)
    )
    proofs = tuple(
        ProofCount(level, bot.proven_moves + bot.unproven_moves, bot.unproven_moves)
        for level, bot in bots.items()
        if isinstance(bot, PerfectBot)
    )
    matches = tuple(Match(a, b, first, second) for (a, b), (first, second) in pairs.items())
    counted = tuple(AuditCount(level, first, second) for level, (first, second) in audits.items())
    return League(standings, matches, proofs, counted)
