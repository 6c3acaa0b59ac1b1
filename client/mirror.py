"""A room as the server reports it, kept from the messages one connection receives.

``RoomMirror`` is sans-I/O: feed it each message (``take``) and it keeps the rules, the
moves, the players, the status, the outcome and the version, and answers what a person
would be told (a player joined, a seat went away). It never decides anything itself: the
server's snapshot replaces it whole, and an event at or below its version is ignored
(docs/protocol.md, invariant "events in version order, each exactly once").
"""

from __future__ import annotations

from typing import Any

from core import Rules

from .wire import Message, is_room_version

__all__ = ["RoomMirror"]


class RoomMirror:
    def __init__(self, mark: str | None = None) -> None:
        self.mark = mark
        """Whose view this is (None: a spectator's): its own presence is not told."""
        self.rules = Rules()
        self.moves: list[dict[str, Any]] = []
        self.players: list[dict[str, Any]] = []
        self.status = "waiting"
        self.outcome: dict[str, Any] | None = None  # the server's, once the game is over
        self.turn: str | None = None
        """Whose move it is while the game is played (None otherwise)."""
        self.clock: dict[str, Any] | None = None
        """The clock of the newest change (None without a time control): ``remaining`` per
        mark as of then, ``running``, ``deadline`` (docs/protocol.md, "Clocks")."""
        self.offers: dict[str, Any] = {}
        """Pending offers of the newest change: ``draw``, ``takeback``, ``rematch``."""
        self.version = 0
        self.gap = False
        """An event skipped a version, or changed the board wholesale (``undone``,
        ``new_game``): the caller should send ``sync`` (the snapshot repairs it)."""

    def apply_state(self, state: Message) -> None:
        """Replace everything with a snapshot (a ``welcome``'s or a ``state``'s)."""
        self.rules = Rules.from_dict(state["rules"])
        self.moves = [dict(m) for m in state["moves"]]
        self.players = [dict(p) for p in state["players"]]
        self.status = state["status"]
        self.outcome = state.get("outcome")
        self.turn = state.get("turn")
        self.clock, self.offers = state.get("clock"), state.get("offers") or {}
        self.version = state["version"]
        self.gap = False

    def take(self, message: Message) -> str | None:
        """Apply one message of the room's; a line to tell a person, if any. Fields an event
        may leave out (a bare relay's carry less) keep what was known."""
        kind = message.get("type")
        if kind in ("welcome", "state"):
            self.apply_state(message["state"])
            return None
        if not is_room_version(message) or message["version"] <= self.version:
            return None
        version: int = message["version"]
        self.gap = self.gap or version > self.version + 1
        self.version = version
        if "clock" in message:  # every change that may move it carries the clock and offers
            self.clock = message["clock"]
        if "offers" in message:
            self.offers = message["offers"] or {}
        if kind == "moved":
            self.moves.append({k: message.get(k) for k in ("mark", "row", "col", "layer")})
            self.status, self.outcome = message.get("status", self.status), message.get("outcome")
            self.turn = message.get("turn")
        elif kind == "game_over":  # ended off the board: resignation, a flag, an abort...
            self.status, self.outcome = message.get("status", self.status), message.get("outcome")
            self.turn = None
        elif kind in ("undone", "new_game"):  # moves taken back, or a rematch's new game
            self.status, self.turn = message.get("status", self.status), message.get("turn")
            if kind == "new_game" and self.mark is not None:
                self.mark = message.get("marks", {}).get(
                    self.mark, self.mark
                )  # the seats swap marks
            self.gap = True  # the board changed wholesale: the snapshot (a sync) says how
        elif kind == "player_joined":
            self.players.append(message["player"])
            self.status = message.get("status", self.status)
            if self.status == "playing":  # the last seat taken: the first mark begins
                self.turn = self.rules.marks[0]
            return f"{message['player']['name']} joined as {message['player']['mark']}."
        elif kind == "presence":
            for player in self.players:
                if player["mark"] == message["mark"]:
                    player["connected"] = message["connected"]
            if message["mark"] != self.mark:
                state = "is back" if message["connected"] else "disconnected"
                return f"{message['mark']} {state}."
        return None
