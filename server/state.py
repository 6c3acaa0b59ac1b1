"""What the app holds while it runs, from settings to the worker's presence.

That is the settings, backend (store + bus), service, hub, watch (timers and bots), quick-play
queue, bots' pool, the spectators' guess desk, and the worker's presence (its lease and the
rooms where it holds connections) with its sweep of dead workers, its connection count, its
loop lag, its rater, and the tournaments: their service, this worker's director and the live
sockets' watchers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from starlette.applications import Starlette

from rooms import Backend, Hub, Presence, Rater, RoomService, Sweeper, Watch
from rooms.backends import QuickPlayQueue
from rooms.fairplay.judge import FairPlayJudge
from rooms.guesses import GuessDesk
from rooms.tournaments import TournamentService
from rooms.tournaments.director import Director

from .bots import BotPool
from .fastpath import Collector
from .guards import ConnectionLimit, Drain, LoopLag
from .push import PushDispatch
from .settings import Settings

if TYPE_CHECKING:  # importing server.tournaments or server.ws here would import their sockets,
    # which need us
    from .bot_api.gate import BotGate
    from .tournaments.feeds import TournamentFeeds
    from .ws.heartbeat import Heartbeats

__all__ = ["AppState", "app_state"]


@dataclass(frozen=True, slots=True)
class AppState:
    settings: Settings
    backend: Backend
    service: RoomService
    hub: Hub
    watch: Watch
    quickplay: QuickPlayQueue
    bots: BotPool
    presence: Presence
    sweeper: Sweeper
    tournaments: TournamentService
    director: Director
    """Does each tournament's due work on this worker (rooms.tournaments.director)."""
    feeds: TournamentFeeds
    heartbeats: Heartbeats
    """This worker's connections that keep a heartbeat, and its sweep (server.ws.heartbeat)."""
    desk: GuessDesk
    """This worker's spectators' guesses and streaks, and the split after each move."""
    collector: Collector | None = None
    """The worker's garbage collector schedule when ``settings.tune_gc`` (started by the
    lifespan)."""
    connections: ConnectionLimit = field(default_factory=lambda: ConnectionLimit(10_000))
    """This worker's open WebSockets against ``settings.max_connections``."""
    lag: LoopLag = field(default_factory=lambda: LoopLag(0.0))
    """This worker's event-loop lag and the admission of newcomers (server.guards.admission)."""
    rater: Rater | None = None
    """Applies the ratings of the rated games this worker sees ended (rooms.ratings.rater)."""
    fairplay: FairPlayJudge | None = None
    """Judges the games this worker saw end against the solver (rooms.fairplay.judge)."""
    push: PushDispatch | None = None
    """Pushes to absent players the turns and ends of this worker's commits (server.push)."""
    drain: Drain = field(default_factory=Drain)
    """Set once the worker drains: ``/readyz`` answers 503 (server.guards.drain)."""
    bot_gate: BotGate | None = None
    """Bot accounts' token checks and per-bot limits on this worker (server.bot_api.gate)."""


def app_state(app: Starlette) -> AppState:
    state: AppState = app.state.tictactoe
    return state
