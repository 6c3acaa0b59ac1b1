"""Encode a game to a compact plain dict and back, exactly (what rooms store).

``{"format": 1, "rules": {...}, "setup": "X../...", "moves": [cell, ...], "end": {...}}``:
``moves`` are cell indices in play order; ``setup`` (only for games loaded from a
position) and ``end`` (only for endings decided off the board: resignation, timeout, ...)
are omitted when empty. Decoding replays the moves through the engine, so a corrupted
record is refused with a GameError instead of producing an impossible game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .errors import GameError
from .game import Game
from .outcome import Outcome
from .rules import Rules

__all__ = ["FORMAT", "decode", "encode"]

FORMAT = 1


def encode(game: Game) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": FORMAT,
        "rules": game.rules.to_dict(),
        "moves": list(game.history_indices),
    }
    setup = game.setup_text
    if setup is not None:
        data["setup"] = setup
    outcome = game.outcome
    if outcome is not None and game.ended_off_board:
        data["end"] = outcome.to_dict()
    return data


def decode(data: Mapping[str, Any], *, win_strategy: str | None = None) -> Game:
    """The game an ``encode`` record describes, its moves replayed and checked.

    ``win_strategy`` is not part of the record (it never changes a result); pass it to
    force one, as ``Game(rules, win_strategy=...)`` does.
    """
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise GameError(f"not an encoded game (format {FORMAT}): {data!r}")
    try:
        rules = Rules.from_dict(data["rules"])
        moves = data["moves"]
        if not isinstance(moves, list):
            raise GameError(f"moves must be a list, got {moves!r}")
        setup = data.get("setup")
        game = (
            Game.from_position(rules, setup, win_strategy=win_strategy)
            if setup is not None
            else Game(rules, win_strategy=win_strategy)
        )
        for index in moves:
            game.play_index(index)
        end = data.get("end")
        if end is not None:
            game.finish(Outcome.from_dict(end))
    except KeyError as exc:
        raise GameError(f"encoded game is missing {exc.args[0]!r}") from exc
    return game
