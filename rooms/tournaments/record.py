"""A tournament's record and its changes, sans I/O (docs/tournaments.md).

The whole record is one value with a ``version``: every change is a function that edits a
decoded copy, and the shelf (``rooms.tournaments.shelf``) writes it back only if the stored
version is still the one read (compare-and-set), so two workers never both pair a round or
both score a game. Each change is idempotent where a retry can repeat it: a result already
there, rooms already recorded, a round already advanced change nothing.

Entrants are identities (``player_id``) or bots the creator adds (``bot:LEVEL:N``). A round
robin's schedule comes from ``core.round_robin`` once it starts; an arena's games are added a
pairing at a time while it runs (``rooms.tournaments.arena``), each pairing a new "round".
Each game's room id is derived from (tournament, round, game), so a second worker creating the
same room finds it taken instead of making another. Standings are ``core.standings``'.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from typing import Any

from core.knockout import REPLAY, MatchState, PlayedGame, bracket, stages
from core.round_robin import schedule
from core.standings import Standing, rank
from rooms.errors import ErrorCode, RoomError

__all__ = [
    "ARENA",
    "BOT_PREFIX",
    "DRAW",
    "KINDS",
    "KNOCKOUT",
    "MISSES_TO_WITHDRAW",
    "ROUND_ROBIN",
    "SWISS",
    "Entrant",
    "Game",
    "Status",
    "TournamentRecord",
    "game_room_id",
]

BOT_PREFIX = "bot:"
MISSES_TO_WITHDRAW = 2
"""Games in a row an entrant may miss (no first move in time) before being withdrawn."""
DRAW = "draw"
ROUND_ROBIN = "round_robin"
ARENA = "arena"
SWISS = "swiss"
KNOCKOUT = "knockout"
KINDS = (ROUND_ROBIN, ARENA, SWISS, KNOCKOUT)


class Status(StrEnum):
    OPEN = "open"
    RUNNING = "running"
    FINISHED = "finished"


def game_room_id(tournament_id: str, round_number: int, index: int) -> str:
    """The room of game ``index`` (from 0) of round ``round_number``: one id for every worker."""
    return f"{tournament_id}-{round_number}-{index}"


@dataclass(slots=True)
class Entrant:
    id: str
    name: str
    bot: str | None = None
    """The bot's level, for a bot entrant."""
    withdrawn: bool = False
    missed: int = 0
    """Games missed in a row (no first move within the limit)."""
    bot_account: bool = False
    """A bot account entered with its identity (rooms.bots): its games' seats are a bot's,
    taken with its token only."""


@dataclass(slots=True)
class Game:
    round: int
    index: int
    first: str
    """The entrant playing X."""
    second: str
    room: str | None = None
    """Set once the room exists."""
    result: str | None = None
    """The winner's entrant id, ``draw``, or None while unplayed."""
    forfeit: str | None = None
    """The entrant who forfeited it (missed the first move, or withdrawn), if any."""
    ended: float | None = None
    """When its result was recorded (an arena rests its players a moment after)."""
    match: int | None = None
    """A knockout's match (from 0, in bracket order) within its round; a drawn match plays
    again as another game of the same match."""

    def involves(self, entrant: str) -> bool:
        return entrant in (self.first, self.second)

    def other(self, entrant: str) -> str:
        return self.second if entrant == self.first else self.first


@dataclass(slots=True)
class TournamentRecord:
    id: str
    name: str
    creator: str
    rules: dict[str, Any]
    time_control: dict[str, float]
    max_players: int
    public: bool
    created: float
    starts_at: float | None = None
    """When it starts by itself; None: when the creator starts it."""
    kind: str = ROUND_ROBIN
    double: bool = False
    """A round robin played twice, colours swapped the second time."""
    duration: float = 0.0
    """An arena's length in seconds from its start."""
    ends_at: float | None = None
    """When an arena stops pairing (set at its start)."""
    draw_rule: str | None = None
    """How a knockout settles a drawn game (``core.knockout.DRAW_RULES``)."""
    seeds: list[str] = field(default_factory=list)
    """A knockout's entrants best seeded first, drawn at its start."""
    status: Status = Status.OPEN
    entrants: list[Entrant] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)
    byes: dict[int, str] = field(default_factory=dict)
    round: int = 0
    """The round being played (from 1); 0 before the start. An arena's last pairing."""
    rounds: int = 0
    """The rounds to play: a round robin's and a knockout's from the start, a Swiss's set at
    creation, an arena's pairings so far."""
    watch_delay: float = 0.0
    """Seconds its games' spectators see them behind the players (rooms.room.delayed)."""
    version: int = 0
    updated: float = 0.0

    # -- text ------------------------------------------------------------------------------

    def text(self) -> str:
        data = asdict(self)
        data["status"] = self.status.value
        data["byes"] = {str(k): v for k, v in self.byes.items()}
        return json.dumps(data, separators=(",", ":"), sort_keys=True)

    @classmethod
    def of_text(cls, text: str) -> TournamentRecord:
        data = json.loads(text)
        data["status"] = Status(data["status"])
        data["entrants"] = [Entrant(**e) for e in data["entrants"]]
        data["games"] = [Game(**g) for g in data["games"]]
        data["byes"] = {int(k): v for k, v in data["byes"].items()}
        return cls(**data)

    # -- reading ---------------------------------------------------------------------------

    def entrant(self, entrant_id: str) -> Entrant | None:
        return next((e for e in self.entrants if e.id == entrant_id), None)

    def round_games(self, number: int | None = None) -> list[Game]:
        number = self.round if number is None else number
        return [g for g in self.games if g.round == number]

    def standings(self) -> tuple[Standing, ...]:
        """``core.standings``' table from the results so far (entrant ids as names); a round
        robin's bye counts once every game of its round has a result. A knockout ranks by
        how far each came (the champion, the finalist, the semi-finalists sharing third, ...),
        then by seed."""
        ids = [e.id for e in self.entrants]
        if len(ids) < 2:
            return ()
        games = [
            (g.first, g.second, None if g.result == DRAW else g.result)
            for g in self.games
            if g.result is not None
        ]
        byes: dict[str, int] = {}
        for number, bye in self.byes.items():
            if all(g.result is not None for g in self.round_games(number)):
                byes[bye] = byes.get(bye, 0) + 1
        table = rank(ids, games, byes=byes)
        if self.kind != KNOCKOUT or not self.seeds:
            return table
        reached = stages(self.bracket())
        stage = {s.name: reached.get(s.name, 0) for s in table}
        seed = {name: i for i, name in enumerate(self.seeds)}
        ordered = sorted(table, key=lambda s: (-stage[s.name], seed.get(s.name, 0)))
        at = Counter(stage.values())  # players who came as far: on one shared rank
        return tuple(
            replace(
                s,
                rank=1 + sum(n for far, n in at.items() if far > stage[s.name]),
                shared=at[stage[s.name]] > 1,
            )
            for s in ordered
        )

    def bracket(self) -> list[list[MatchState]]:
        """A knockout's bracket as its games stand (``core.knockout.bracket``); the indexes of
        each match's games are in ``games``."""
        played = [
            PlayedGame(
                g.round,
                g.match if g.match is not None else -1,
                g.first,
                g.second,
                g.result is not None,
                None if g.result in (None, DRAW) else g.result,
            )
            for g in self.games
        ]
        return bracket(self.seeds, played, self.draw_rule or REPLAY)

    def open_games(self) -> list[Game]:
        """The games being played: their room exists and they have no result."""
        return [g for g in self.games if g.room is not None and g.result is None]

    def game_of(self, entrant_id: str) -> Game | None:
        """The entrant's game being played (its room exists and it is unfinished), if any."""
        return next((g for g in self.open_games() if g.involves(entrant_id)), None)

    # -- changes before the start ----------------------------------------------------------

    def require_open(self, doing: str) -> None:
        self._require(Status.OPEN, doing)

    def _require(self, status: Status, doing: str) -> None:
        if self.status is not status:
            raise RoomError(
                ErrorCode.TOURNAMENT_CLOSED,
                f"cannot {doing}: the tournament is {self.status.value}",
            )

    def require_creator(self, player_id: str, doing: str) -> None:
        if player_id != self.creator:
            raise RoomError(ErrorCode.NOT_CREATOR, f"only the tournament's creator can {doing}")

    def late_entry(self, now: float | None) -> bool:
        """Whether an arena under way still takes entrants at ``now`` (until it ends)."""
        return (
            self.kind == ARENA
            and self.status is Status.RUNNING
            and now is not None
            and self.ends_at is not None
            and now < self.ends_at
        )

    def join(
        self,
        entrant_id: str,
        name: str,
        *,
        bot: str | None = None,
        now: float | None = None,
        bot_account: bool = False,
    ) -> bool:
        """Enter ``entrant_id``; False when entered already (a repeat changes nothing, in any
        status: a page reloaded after the start joins again and must not fail). An arena
        under way takes entrants until it ends (``now``)."""
        if self.entrant(entrant_id) is not None:
            return False
        if not self.late_entry(now):
            if self.kind == ARENA and self.status is Status.RUNNING and now is not None:
                raise RoomError(ErrorCode.TOURNAMENT_CLOSED, "cannot join: the arena has ended")
            self._require(Status.OPEN, "join")
        if len(self.entrants) >= self.max_players:
            raise RoomError(
                ErrorCode.TOURNAMENT_FULL, f"the tournament is full ({self.max_players} players)"
            )
        self.entrants.append(Entrant(entrant_id, name, bot, bot_account=bot_account))
        return True

    def add_bot(self, level: str, name: str, *, now: float | None = None) -> str:
        """Enter a new bot of ``level``; its entrant id."""
        number = 1 + sum(1 for e in self.entrants if e.bot is not None)
        bot_id = f"{BOT_PREFIX}{level}:{number}"
        self.join(bot_id, name, bot=level, now=now)
        return bot_id

    def start(self, now: float) -> None:
        """A round robin: draw the schedule and open round 1 (its rooms are made by whoever
        sees it due). An arena: run until ``now + duration``, pairing as players come free."""
        self._require(Status.OPEN, "start")
        assert self.kind in (ROUND_ROBIN, ARENA), "a Swiss or knockout starts in its module"
        if self.kind == ARENA:
            self.status, self.ends_at = Status.RUNNING, now + self.duration
            return
        if len(self.entrants) < 2:
            raise RoomError(
                ErrorCode.TOURNAMENT_CLOSED, "a round robin needs at least two entrants to start"
            )
        rounds = schedule([e.id for e in self.entrants], double=self.double)
        self.games = [
            Game(r.number, index, p.first, p.second)
            for r in rounds
            for index, p in enumerate(r.pairings)
        ]
        self.byes = {r.number: r.bye for r in rounds if r.bye is not None}
        self.rounds, self.round, self.status = len(rounds), 1, Status.RUNNING

    def withdraw(self, entrant_id: str) -> bool:
        """Leave: before the start, off the list; after it, every game not yet in a room is
        forfeited (a game being played is played out, or forfeited by its first-move limit).
        False when there is nothing to do (not entered, withdrawn already, finished)."""
        entrant = self.entrant(entrant_id)
        if entrant is None or entrant.withdrawn or self.status is Status.FINISHED:
            return False
        if self.status is Status.OPEN:
            self.entrants.remove(entrant)
            return True
        entrant.withdrawn = True
        for game in self.games:
            if game.involves(entrant_id) and game.room is None and game.result is None:
                self.forfeit(game, entrant_id)
        return True

    # -- running ---------------------------------------------------------------------------

    def forfeit(self, game: Game, loser: str) -> None:
        """Score ``game`` against ``loser``; between two withdrawn entrants, a draw."""
        other = self.entrant(game.other(loser))
        both = other is not None and other.withdrawn and game.room is None
        game.result, game.forfeit = (DRAW if both else game.other(loser)), loser

    def rooms_due(self) -> list[Game]:
        """The games paired so far (a round robin's up to the current round) that need a
        room: both entrants still in, no result yet."""
        if self.status is not Status.RUNNING:
            return []
        return [
            g for g in self.games if g.round <= self.round and g.room is None and g.result is None
        ]

    def room_made(self, game_round: int, index: int, room_id: str) -> bool:
        game = self._game(game_round, index)
        if game.room is not None:
            return False
        game.room = room_id
        return True

    def score(
        self,
        game_round: int,
        index: int,
        result: str,
        *,
        missed: str | None,
        at: float | None = None,
    ) -> bool:
        """Record a game's result (the winner's id or ``draw``); ``missed``: the entrant who
        did not make the first move (the game forfeited by them). False when scored already:
        a result is written once, whoever reports it and however often."""
        game = self._game(game_round, index)
        if game.result is not None:
            return False
        if missed is not None:
            self.forfeit(game, missed)
        else:
            game.result = result
        game.ended = at
        for entrant_id in (game.first, game.second):
            entrant = self.entrant(entrant_id)
            assert entrant is not None
            entrant.missed = entrant.missed + 1 if entrant_id == missed else 0
            if entrant.missed >= MISSES_TO_WITHDRAW and not entrant.withdrawn:
                self.withdraw(entrant_id)
        return True

    def advance(self, pair: Callable[[TournamentRecord], None] | None = None) -> bool:
        """A round robin's or a Swiss's next round (or its finish) once every game of this
        one has a result; ``pair`` pairs a Swiss's new round (a round robin's is drawn at the
        start). An arena's and a knockout's steps are in their modules."""
        if self.status is not Status.RUNNING or self.kind not in (ROUND_ROBIN, SWISS):
            return False
        if any(g.result is None for g in self.round_games()):
            return False
        if self.round >= self.rounds:
            self.status = Status.FINISHED
        else:
            self.round += 1
            if pair is not None:
                pair(self)
        return True

    def _game(self, game_round: int, index: int) -> Game:
        for game in self.games:
            if game.round == game_round and game.index == index:
                return game
        raise RoomError(ErrorCode.NOT_FOUND, f"no game {index} in round {game_round}")
