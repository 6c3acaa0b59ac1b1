"""Encode a game to a compact plain dict and back, exactly (what rooms store).

``{"format": 1, "rules": {...}, "setup": "X../...", "moves": [cell, ...], "end": {...}}``:
``moves`` are cell indices in play order; ``setup`` (games loaded from a position) and ``end``
(endings decided off the board: resignation, timeout, ...) are omitted when empty. Decoding
replays the moves through the engine, so a corrupted record raises GameError instead of
producing an impossible game.

Rooms decode and encode on every command without a current copy, so the per-record work stays
small: rules are built and turned back into a dict once per distinct rules, and the replay
checks cells as ``play_index`` does without building a ``Move`` each (``Game.play_indices``).
Given ``base``, an earlier decoded state of the same game (same rules and win strategy, empty
start, moves a prefix of the record's), only the new moves are played on its copy, each checked
as the replay checks it; in any other case or doubt the record is replayed in full.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, cast

from .errors import GameError
from .game import Game
from .interned import BuiltOnce
from .outcome import Outcome
from .rules import Rules

__all__ = ["FORMAT", "decode", "encode"]

FORMAT = 1

_KNOWN_RULES = 256
"""How many distinct rules each of the two caches below keeps (a handful in practice)."""
_dicts_of: dict[Rules, dict[str, Any]] = {}


_rules_from = BuiltOnce(Rules.from_dict, limit=_KNOWN_RULES)
"""``Rules.from_dict(data)``, built once per distinct rules (core.interned)."""


def _rules_dict(rules: Rules) -> dict[str, Any]:
    """``rules.to_dict()`` (a fresh dict each time), built once per distinct rules."""
    found = _dicts_of.get(rules)
    if found is None:
        if len(_dicts_of) >= _KNOWN_RULES:
            _dicts_of.clear()
        found = _dicts_of[rules] = rules.to_dict()
    return dict(found)


_INT_ONLY = {int}


def _played_in(
    base: Game | None, rules: Rules, moves: list[Any], win_strategy: str | None
) -> int | None:
    """How many of ``moves`` ``base`` has played already, when a copy of it is exactly
    the game a replay of them would have reached at that point; else None.

    The copy must be the replay's: the same rules and win strategy, no loaded position,
    and no ending off the board (the record's ``end`` is applied after the moves, and
    ``finish`` refuses a game already over). The moves must start with the base's, each
    a plain int (a replay refuses ``true`` or ``4.0``, which equal ``1`` and ``4``);
    the moves after them are played and checked as the replay would."""
    if base is None or base.rules != rules or base.setup_text is not None:
        return None
    if base.ended_off_board or base.win_strategy != _default_strategy(rules, win_strategy):
        return None
    played = base.history_indices
    count = len(played)
    if count > len(moves):
        return None
    head = moves[:count]
    if not set(map(type, head)) <= _INT_ONLY or tuple(head) != played:
        return None
    return count


_strategies_of: dict[Rules, str] = {}


def _default_strategy(rules: Rules, forced: str | None) -> str:
    """The win strategy a new ``Game(rules, win_strategy=forced)`` takes (looked up once
    per distinct rules: what a new game picks is the engine's choice, not repeated here)."""
    if forced is not None:
        return forced
    found = _strategies_of.get(rules)
    if found is None:
        if len(_strategies_of) >= _KNOWN_RULES:
            _strategies_of.clear()
        found = _strategies_of[rules] = Game(rules).win_strategy
    return found


def encode(game: Game) -> dict[str, Any]:
    data: dict[str, Any] = {
        "format": FORMAT,
        "rules": _rules_dict(game.rules),
        "moves": list(game.history_indices),
    }
    setup = game.setup_text
    if setup is not None:
        data["setup"] = setup
    outcome = game.outcome
    if outcome is not None and game.ended_off_board:
        data["end"] = outcome.to_dict()
    return data


def decode(
    data: Mapping[str, Any], *, win_strategy: str | None = None, base: Game | None = None
) -> Game:
    """The game an ``encode`` record describes, its moves replayed and checked.

    ``win_strategy`` is not part of the record (it never changes a result); pass it to
    force one, as ``Game(rules, win_strategy=...)`` does. ``base``, an earlier state of
    the same game, is only read: the replay starts from a copy of it when that gives the
    same game (see the module).
    """
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise GameError(f"not an encoded game (format {FORMAT}): {data!r}")
    try:
        rules = _rules_from(data["rules"])
        moves = data["moves"]
        if not isinstance(moves, list):
            raise GameError(f"moves must be a list, got {moves!r}")
        setup = data.get("setup")
        played = _played_in(base, rules, moves, win_strategy) if setup is None else None
        if played is not None:
            game = cast(Game, base).copy()
            game.play_indices(cast(list[int], moves[played:]))  # each new one checked
        else:
            game = (
                Game.from_position(rules, setup, win_strategy=win_strategy)
                if setup is not None
                else Game(rules, win_strategy=win_strategy)
            )
            game.play_indices(cast(list[int], moves))  # each one checked
        end = data.get("end")
        if end is not None:
            game.finish(Outcome.from_dict(end))
    except KeyError as exc:
        raise GameError(f"encoded game is missing {exc.args[0]!r}") from exc
    return game
