"""The engine protocol's lines, both ways, without I/O (docs/engine-protocol.md).

The bridge writes ``tttengine 1``, ``position ...``, ``go ...`` and ``quit``; an engine
answers ``id``, ``supports`` and ``ready`` lines, then ``bestmove`` (or ``error``), with any
``info`` lines between. Everything here is a pure function of text and ``core`` values, so
both sides (the driver in cli.bridge.driver, the project's own engine in
cli.bridge.builtin_engine) and the tests share one reading of every line. A bad line raises
ValueError naming what is wrong.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields

from core import Game, GameError, Move, Rules

__all__ = [
    "HELLO",
    "PROTOCOL_VERSION",
    "ClockTimes",
    "EngineInfo",
    "GoRequest",
    "Handshake",
    "RulesFilter",
    "go_line",
    "parse_cell",
    "parse_go",
    "parse_position",
    "position_line",
]

PROTOCOL_VERSION = 1
HELLO = f"tttengine {PROTOCOL_VERSION}"
"""The bridge's first line; the engine answers with its handshake, ending in ``ready``."""

_RULE_TYPES: dict[str, type] = {
    field.name: (bool if field.type in ("bool", bool) else int) for field in fields(Rules)
}
"""Every rule the protocol names, with its kind (the field names of ``core.Rules``)."""


def _word(value: int | bool) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _rule_value(name: str, text: str) -> int | bool:
    kind = _RULE_TYPES.get(name)
    if kind is None:
        raise ValueError(f"{name!r} is not a rule (known: {', '.join(_RULE_TYPES)})")
    if kind is bool:
        if text not in ("true", "false"):
            raise ValueError(f"rule {name} must be true or false, got {text!r}")
        return text == "true"
    if not text.isdigit():
        raise ValueError(f"rule {name} must be a whole number, got {text!r}")
    return int(text)


def _pairs(words: list[str]) -> list[tuple[str, str]]:
    pairs = []
    for word in words:
        name, equals, value = word.partition("=")
        if not equals or not name or not value:
            raise ValueError(f"expected NAME=VALUE, got {word!r}")
        pairs.append((name, value))
    return pairs


# -- the handshake ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RulesFilter:
    """One ``supports`` line: every named rule must be in its range (a line naming no rule
    takes every rule set). ``bounds`` holds (rule, lowest, highest); for a true/false rule
    both ends are the one value allowed."""

    bounds: tuple[tuple[str, int | bool, int | bool], ...] = ()

    @classmethod
    def parse(cls, words: list[str]) -> RulesFilter:
        """From the words after ``supports``: ``players=2 rows=3-7 gravity=false``."""
        bounds = []
        for name, text in _pairs(words):
            if _RULE_TYPES.get(name) is int and "-" in text:
                low_text, _, high_text = text.partition("-")
                low, high = _rule_value(name, low_text), _rule_value(name, high_text)
                if low > high:
                    raise ValueError(f"rule {name}: range {text!r} is empty")
            else:
                low = high = _rule_value(name, text)
            bounds.append((name, low, high))
        return cls(tuple(bounds))

    def matches(self, rules: Rules) -> bool:
        return all(low <= getattr(rules, name) <= high for name, low, high in self.bounds)

    def __str__(self) -> str:
        words = [
            f"{name}={_word(low)}" if low == high else f"{name}={low}-{high}"
            for name, low, high in self.bounds
        ]
        return " ".join(["supports", *words])


@dataclass(frozen=True, slots=True)
class EngineInfo:
    """Who the engine is and what it plays, from its handshake."""

    name: str
    version: str
    supports: tuple[RulesFilter, ...]

    def plays(self, rules: Rules) -> bool:
        return any(line.matches(rules) for line in self.supports)

    def lines(self) -> list[str]:
        """The handshake an engine sends to say this (cli.bridge.builtin_engine's)."""
        head = [f"id name {self.name}", f"id version {self.version}"]
        return [*head, *(str(line) for line in self.supports), "ready"]


class Handshake:
    """Reads an engine's answer to ``tttengine 1`` line by line until ``ready``."""

    def __init__(self) -> None:
        self._ids: dict[str, str] = {}
        self._supports: list[RulesFilter] = []

    def feed(self, line: str) -> EngineInfo | None:
        """The engine's info once ``line`` is ``ready``; None while more is to come. Lines
        the protocol does not know (and ``info`` lines) are left to the caller to log."""
        word, _, rest = line.partition(" ")
        if word == "id":
            key, _, value = rest.partition(" ")
            if key in ("name", "version") and value.strip():
                self._ids[key] = value.strip()
        elif word == "supports":
            self._supports.append(RulesFilter.parse(rest.split()))
        elif word == "error":
            raise ValueError(f"the engine refused the handshake: {rest or '(no reason)'}")
        elif word == "ready":
            missing = [key for key in ("name", "version") if key not in self._ids]
            if missing:
                raise ValueError(f"the handshake ended without id {' and '.join(missing)}")
            if not self._supports:
                raise ValueError("the handshake ended without a supports line")
            return EngineInfo(self._ids["name"], self._ids["version"], tuple(self._supports))
        return None


# -- a position ---------------------------------------------------------------------------


def _cell(move: Move, rules: Rules) -> str:
    return f"{move.row},{move.col},{move.layer}" if rules.is_3d else f"{move.row},{move.col}"


def parse_cell(text: str, rules: Rules) -> Move:
    """``row,col`` (2D) or ``row,col,layer`` (3D), 0-based; ValueError when malformed
    (whether the cell is free is the game's to say, not this)."""
    parts = text.split(",")
    wanted = 3 if rules.is_3d else 2
    if len(parts) not in (wanted, 3) or not all(part.isdigit() for part in parts):
        shape = "row,col,layer" if rules.is_3d else "row,col"
        raise ValueError(f"a cell is {shape} in whole numbers, got {text!r}")
    return Move(*(int(part) for part in parts))


def position_line(game: Game) -> str:
    """``position rules R... board TEXT turn MARK moves CELL...``: everything an engine needs,
    so it keeps no state between questions (a takeback is just another position)."""
    rules = game.rules
    words = [f"{name}={_word(value)}" for name, value in rules.to_dict().items()]
    moves = [_cell(move, rules) for move in game.history]
    turn = game.turn if not game.is_over else "-"
    return " ".join(["position", "rules", *words, "board", game.board.text, "turn", turn,
                     "moves", *moves])  # fmt: skip


def parse_position(line: str) -> Game:
    """The game of a ``position`` line: its rules, then its moves replayed (a position that
    did not start from an empty board is loaded from its ``board``)."""
    words = line.split()
    try:
        at = {word: words.index(word) for word in ("rules", "board", "turn", "moves")}
    except ValueError:
        raise ValueError("a position needs rules, board, turn and moves") from None
    in_order = 1 == at["rules"] < at["board"] == at["turn"] - 2 == at["moves"] - 4
    if words[0] != "position" or not in_order:
        raise ValueError(f"not a position line: {line!r}")
    try:
        rules = Rules.from_dict(dict(_rules_pairs(words[2 : at["board"]])))
        game = Game(rules)
        for text in words[at["moves"] + 1 :]:
            game.play(parse_cell(text, rules))
        board = words[at["board"] + 1]
        if game.board.text != board:
            game = Game.from_position(rules, board)
    except GameError as exc:
        raise ValueError(str(exc)) from exc
    turn = words[at["turn"] + 1]
    if turn != (game.turn if not game.is_over else "-"):
        raise ValueError(f"turn {turn} does not fit the position ({game!r})")
    return game


def _rules_pairs(words: list[str]) -> list[tuple[str, int | bool]]:
    return [(name, _rule_value(name, text)) for name, text in _pairs(words)]


# -- thinking -----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ClockTimes:
    """The room's clock as the engine is told it: seconds left per mark, and the increment."""

    remaining: Mapping[str, float]
    increment: float


@dataclass(frozen=True, slots=True)
class GoRequest:
    """A ``go`` line read back: answer within ``movetime`` seconds; ``clock`` when the
    game has a time control."""

    movetime: float
    clock: ClockTimes | None = None


def go_line(movetime: float, clock: ClockTimes | None = None) -> str:
    """``go movetime S [clock X=S O=S inc S]``, seconds with three decimals."""
    words = ["go", "movetime", f"{movetime:.3f}"]
    if clock is not None:
        words += ["clock", *(f"{mark}={left:.3f}" for mark, left in clock.remaining.items())]
        words += ["inc", f"{clock.increment:.3f}"]
    return " ".join(words)


def _seconds(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise ValueError(f"{what} must be seconds, got {text!r}") from None
    if not value >= 0 or value == float("inf"):
        raise ValueError(f"{what} must be seconds, got {text!r}")
    return value


def parse_go(line: str) -> GoRequest:
    words = line.split()
    if words[:2] != ["go", "movetime"] or len(words) < 3:
        raise ValueError(f"a go line starts with go movetime S, got {line!r}")
    movetime = _seconds(words[2], "movetime")
    rest = words[3:]
    if not rest:
        return GoRequest(movetime)
    if rest[0] != "clock" or len(rest) < 3 or rest[-2] != "inc":
        raise ValueError(f"after movetime comes clock MARK=S ... inc S, got {line!r}")
    remaining = {mark: _seconds(left, f"{mark}'s time") for mark, left in _pairs(rest[1:-2])}
    return GoRequest(movetime, ClockTimes(remaining, _seconds(rest[-1], "inc")))
