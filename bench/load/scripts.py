"""Pre-played games: the moves each bench game sends, legal by construction.

The load generator must make legal moves without spending its own CPU on the engine while
it measures, so random games are played through ``core.Game`` before the run starts and
each bench game replays one of them. A move is kept as the JSON text the client sends,
minus its ``version`` (known only when the move is sent), so sending costs one string
concatenation.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from core import Game, Move, Rules

__all__ = ["Script", "make_scripts", "move_fields"]


@dataclass(frozen=True, slots=True)
class Script:
    """One whole game: per ply, the move text without its closing ``version`` field."""

    heads: tuple[str, ...]
    cols: tuple[int, ...]
    """The column of each move: a ``moved`` event is checked against it (a cheap guard
    against a server, or a relay, that delivers moves out of order)."""

    def __len__(self) -> int:
        return len(self.heads)

    def text(self, ply: int, version: int) -> str:
        """The ``move`` message of ``ply``, made against ``version``."""
        return f"{self.heads[ply]}{version}}}"


def move_fields(rules: Rules, move: Move) -> dict[str, int]:
    """The coordinates a client sends for ``move`` (docs/protocol.md, ``move``)."""
    if rules.gravity:
        return {"row": move.row, "col": move.col} if rules.is_3d else {"col": move.col}
    if rules.is_3d:
        return {"row": move.row, "col": move.col, "layer": move.layer}
    return {"row": move.row, "col": move.col}


def _script(rules: Rules, rng: random.Random) -> Script:
    game = Game(rules)
    while game.outcome is None:
        game.play_index(rng.choice(game.legal_indices()))
    heads, cols = [], []
    for ply, move in enumerate(game.history):
        fields: dict[str, Any] = {"type": "move", **move_fields(rules, move)}
        fields["move_id"] = f"m{ply}"
        body = json.dumps(fields, separators=(",", ":"))
        heads.append(body[:-1] + ',"version":')  # the version goes last, when it is known
        cols.append(move.col)
    return Script(tuple(heads), tuple(cols))


def make_scripts(rules: Mapping[str, Any], count: int, seed: int) -> list[Script]:
    """``count`` random whole games under ``rules`` (a dict as ``POST /api/rooms`` takes)."""
    if count < 1:
        raise ValueError(f"count must be at least 1, got {count}")
    parsed = Rules.from_dict(dict(rules))
    if parsed.players != 2:
        raise ValueError("the load generator plays two-player games only")
    rng = random.Random(seed)
    return [_script(parsed, rng) for _ in range(count)]
