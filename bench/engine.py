"""Engine benchmark: random playouts per second and the cost of one move, per variant.

    .venv/bin/python -m bench.engine [--seconds S] [--json] [--seed N]

- *playouts/s*: whole random games from a new ``Game``: list the legal cells, pick one with
  a seeded ``random.Random``, ``play_index`` it, until the game ends.
- *cost per move*: one validated move (validate, place, win check) on games recorded
  beforehand, timed without building the games, three ways: ``play(Move)``, ``play(dict)``
  as the protocol delivers a move (parsed, gravity resolved), and ``play_index``.

Every variant runs with each win strategy that fits it (counter needs k to be the longest
line). Time is the process's CPU time (``time.process_time``), so other work on a shared
machine does not inflate it, and the per-move figures are medians over rounds.
"""

from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import statistics
import sys
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from time import process_time, process_time_ns
from typing import Any

from core import Game, Move, Rules, geometry
from core.wins import CounterStrategy

__all__ = ["VARIANTS", "Measurement", "main", "measure"]

VARIANTS: dict[str, Rules] = {
    "3×3 k=3": Rules(),
    "7×6 k=4 gravity": Rules(rows=6, cols=7, k=4, gravity=True),
    "15×15 k=5": Rules(rows=15, cols=15, k=5),
    "4×4×4 k=4": Rules(rows=4, cols=4, layers=4, k=4),
}

MOVES_PER_ROUND = 20_000  # recorded moves replayed in one timed round


@dataclass(frozen=True, slots=True)
class Measurement:
    variant: str
    strategy: str
    playouts_per_s: float
    moves_per_playout: float
    play_move_us: float  # Game.play(Move)
    play_dict_us: float  # Game.play({"row": r, "col": c}) as the protocol sends it
    play_index_us: float  # Game.play_index(i)


def strategies_for(rules: Rules) -> list[str]:
    fits_counter = CounterStrategy.supports(geometry(rules))
    return ["counter", "connect"] if fits_counter else ["connect"]


def _playouts(rules: Rules, strategy: str, seconds: float, rng: random.Random) -> tuple[int, int]:
    """Random games until the time is up: (games, moves)."""
    games = moves = 0
    deadline = process_time() + seconds
    while process_time() < deadline:
        game = Game(rules, win_strategy=strategy)
        while game.outcome is None:
            game.play_index(rng.choice(game.legal_indices()))
            moves += 1
        games += 1
    return games, moves


def _record(rules: Rules, rng: random.Random) -> list[tuple[int, ...]]:
    """Random games, as cell indices, adding up to about MOVES_PER_ROUND moves."""
    recorded, total = [], 0
    while total < MOVES_PER_ROUND:
        game = Game(rules)
        while game.outcome is None:
            game.play_index(rng.choice(game.legal_indices()))
        recorded.append(game.history_indices)
        total += len(recorded[-1])
    return recorded


def _as_request(rules: Rules, move: Move) -> dict[str, int]:
    """The move as a client sends it: gravity names the column (and the row in 3D)."""
    if rules.gravity:
        return {"col": move.col, "row": move.row} if rules.is_3d else {"col": move.col}
    if rules.is_3d:
        return {"row": move.row, "col": move.col, "layer": move.layer}
    return {"row": move.row, "col": move.col}


def _time_round(rules: Rules, strategy: str, games: Sequence[Sequence[Any]], method: str) -> float:
    """Microseconds per move to replay ``games`` through ``Game.<method>`` on fresh games."""
    fresh = [Game(rules, win_strategy=strategy) for _ in games]
    moves = sum(len(g) for g in games)
    gc.collect()
    start = process_time_ns()
    for game, recorded in zip(fresh, games, strict=True):
        play: Callable[[Any], Move] = getattr(game, method)
        for move in recorded:
            play(move)
    return (process_time_ns() - start) / moves / 1000


def _cost_per_move(
    rules: Rules, strategy: str, seconds: float, rng: random.Random
) -> tuple[float, float, float]:
    indices = _record(rules, rng)
    as_moves = [[Move(*rules.coords(i)) for i in game] for game in indices]
    as_dicts = [[_as_request(rules, m) for m in game] for game in as_moves]
    forms: list[tuple[Sequence[Sequence[Any]], str]] = [
        (as_moves, "play"),
        (as_dicts, "play"),
        (indices, "play_index"),
    ]
    rounds: list[list[float]] = [[], [], []]
    deadline = process_time() + seconds
    while process_time() < deadline or len(rounds[-1]) < 3:
        for times, (games, method) in zip(rounds, forms, strict=True):
            times.append(_time_round(rules, strategy, games, method))
    medians = [statistics.median(times) for times in rounds]
    return medians[0], medians[1], medians[2]


def measure(name: str, rules: Rules, strategy: str, seconds: float, seed: int) -> Measurement:
    rng = random.Random(seed)
    games, moves = _playouts(rules, strategy, seconds / 2, rng)
    per_move = _cost_per_move(rules, strategy, seconds / 2, rng)
    return Measurement(
        variant=name,
        strategy=strategy,
        playouts_per_s=games / (seconds / 2),
        moves_per_playout=moves / max(games, 1),
        play_move_us=per_move[0],
        play_dict_us=per_move[1],
        play_index_us=per_move[2],
    )


def table(results: Sequence[Measurement]) -> str:
    """A Markdown table: readable in a terminal and pasted as is into docs/performance.md."""
    lines = [
        "| variant | win strategy | playouts/s | moves/playout "
        "| µs/move play(Move) | µs/move play(dict) | µs/move play_index |",
        "| --- | --- | ---: | ---: | ---: | ---: | ---: |",
    ]
    for r in results:
        lines.append(
            f"| {r.variant} | {r.strategy} | {r.playouts_per_s:,.0f} | {r.moves_per_playout:.1f} "
            f"| {r.play_move_us:.2f} | {r.play_dict_us:.2f} | {r.play_index_us:.2f} |"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bench.engine",
        description="Random playouts per second and cost per move of the core engine.",
    )
    parser.add_argument(
        "--seconds", type=float, default=2.0, help="time per variant and strategy (default 2)"
    )
    parser.add_argument("--seed", type=int, default=1, help="seed of the random games")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error(f"--seconds must be more than 0, got {args.seconds}")
    results = [
        measure(name, rules, strategy, args.seconds, args.seed)
        for name, rules in VARIANTS.items()
        for strategy in strategies_for(rules)
    ]
    if args.json:
        print(
            json.dumps(
                {
                    "python": platform.python_version(),
                    "implementation": platform.python_implementation(),
                    "seconds": args.seconds,
                    "seed": args.seed,
                    "results": [asdict(r) for r in results],
                },
                indent=2,
                ensure_ascii=False,
            )
        )
    else:
        print(f"CPython {platform.python_version()}, {args.seconds:g} s per row, seed {args.seed}")
        print(table(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
