"""What a spectator of a delayed game may see: the room as it was ``watch_delay`` seconds ago.

A tournament may have its games watched behind the players (``RoomSettings.watch_delay``), so
that nobody watching can feed a player moves. ``delayed_snapshot`` is the room's snapshot
(rooms.room.views) with everything after ``cutoff`` taken out: the moves played later
(``move_times``), and an end that came later (the outcome, the series score it changed, the
rating change). While something is held back, the clocks and the deadline are left out too
(they would tell that a move was played). Its ``version`` is the room's version when the view
was taken: a delayed spectator receives every change as such a ``state`` and never an event.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core import Game
from rooms.room.record import current_record
from rooms.room.views import snapshot

if TYPE_CHECKING:
    from rooms.room.state import RoomState

__all__ = ["delayed_record", "delayed_snapshot", "hidden_times", "public_record", "public_snapshot"]


def hidden_times(room: RoomState, cutoff: float) -> list[float]:
    """When each change held back at ``cutoff`` happened (moves, then a later end), oldest
    first: a delayed spectator's view changes at each of these plus the delay."""
    times = [at for at in room.move_times if at > cutoff]
    if room.game.is_over and room.ended_at is not None and room.ended_at > cutoff:
        times.append(room.ended_at)
    return sorted(times)


def public_snapshot(room: RoomState, now: float) -> dict[str, Any]:
    """The snapshot anyone but the room's players may see at ``now`` (the HTTP API, the room
    page): delayed when the room is watched with a delay."""
    delay = room.settings.watch_delay
    return delayed_snapshot(room, now - delay, now) if delay > 0 else snapshot(room, now)


def public_record(room: RoomState, now: float) -> dict[str, Any]:
    """The current game's record as anyone but its players may see it at ``now``."""
    delay = room.settings.watch_delay
    return delayed_record(room, now - delay) if delay > 0 else current_record(room)


def _end_hidden(room: RoomState, cutoff: float) -> bool:
    return room.game.is_over and (room.ended_at is None or room.ended_at > cutoff)


def delayed_record(room: RoomState, cutoff: float) -> dict[str, Any]:
    """The current game's record (rooms.room.record) as it stood at ``cutoff``."""
    record = current_record(room)
    shown = sum(1 for at in room.move_times if at <= cutoff)
    record["moves"] = record["moves"][:shown]
    if _end_hidden(room, cutoff):
        record.update(outcome=None, ended_at=None)
    return record


def delayed_snapshot(room: RoomState, cutoff: float, now: float) -> dict[str, Any]:
    """The snapshot a spectator may see at ``now`` of a game delayed to ``cutoff``."""
    view = snapshot(room, now)
    shown = sum(1 for at in room.move_times if at <= cutoff)
    outcome = room.game.outcome
    end_hidden = _end_hidden(room, cutoff)
    if shown == room.game.ply and not end_hidden:
        return view
    game = Game(room.rules)
    game.play_indices(room.game.history_indices[:shown])
    view.update(
        status="playing",
        board=game.board.text,
        turn=game.turn,
        ply=game.ply,
        moves=view["moves"][:shown],
        clock=None,
        due=None,
    )
    if end_hidden and outcome is not None:
        players = []
        for seen in view["players"]:
            player = dict(seen)
            if outcome.winner == player["mark"]:
                player["wins"] -= 1
            elif outcome.is_draw:
                player["draws"] -= 1
            players.append(player)
        view.update(outcome=None, ended_at=None, players=players, rating_change=None)
    return view
