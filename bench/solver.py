"""Solver, bots and analysis benchmark: proofs, playouts per second, move costs, leagues.

    .venv/bin/python -m bench.solver [--quick] [--sections solve,mcts,moves,analysis,league]
                                     [--cap-s S] [--boards NAME,...] [--league-games N]
                                     [--pons-src GIT-OR-DIR] [--pons-dir DIR] [--json]

The solve section proves each board's win/draw/loss value from the empty board (capped at
``--cap-s`` CPU seconds a board: "unproven after N s" past it), then measures the distance
to the end of best play for wins and losses under the same cap, and reports nodes, nodes
per CPU second, CPU seconds (``time.process_time``, the searches' clock, so other work on a
shared machine does not inflate them) and wall seconds. The versus section (asked for by
name: it builds Pascal Pons' solver, ``bench.solver_versus``) proves Connect Four 5×4, 6×4
and 6×5 with his solver and both of ours in one run. Leagues use node budgets (hard:
``--hard-playouts`` a move, perfect: unlimited), so they replay exactly.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from time import process_time
from typing import Any

from core import Game, Move, Rules
from core.ai import UNLIMITED, Budget, Solver
from core.ai.analysis import analyze
from core.ai.budget import OutOfBudget
from core.ai.factory import LEVELS, make_bot
from core.ai.league import run_league
from core.ai.mcts import MctsBot
from core.ai.selfplay import play_game
from core.ai.solve import root_distance
from core.ai.table import LARGE_BUCKETS

from .pons import PONS_SOURCE
from .solver_versus import bench_versus

__all__ = ["main"]

SOLVE_BOARDS: dict[str, tuple[Rules, str]] = {  # name -> (rules, the known value)
    "3×3 k=3": (Rules(3, 3, 3), "draw"),
    "3×3 k=3 misère": (Rules(3, 3, 3, misere=True), "draw"),
    "4×4 k=3": (Rules(4, 4, 3), "first"),
    "4×4 k=4": (Rules(4, 4, 4), "draw"),
    "3×3×3 k=3": (Rules(3, 3, 3, layers=3), "first"),
    "Connect Four 5 cols × 4 rows": (Rules(4, 5, 4, gravity=True), "draw"),
}
SLOW_BOARDS: dict[str, tuple[Rules, str]] = {
    "5×4 k=4": (Rules(5, 4, 4), "draw"),
    "5×5 k=4": (Rules(5, 5, 4), "draw"),
    "Connect Four 6 cols × 4 rows": (Rules(4, 6, 4, gravity=True), "second"),
    "Connect Four 6 cols × 5 rows": (Rules(5, 6, 4, gravity=True), "draw"),
}
_RESULTS = {1: "first", 0: "draw", -1: "second"}  # the value of the empty board for X
MCTS_BOARDS: dict[str, tuple[Rules, list[Move]]] = {
    "3×3 k=3, empty": (Rules(3, 3, 3), []),
    "7×6 k=4 gravity, empty": (Rules(6, 7, 4, gravity=True), []),
    "15×15 k=5, 6 marks": (
        Rules(15, 15, 5),
        [Move(7, 7), Move(7, 8), Move(8, 8), Move(6, 6), Move(8, 7), Move(9, 9)],
    ),
}


def _cpu(action: Callable[[], Any]) -> tuple[Any, float]:
    start = process_time()
    result = action()
    return result, process_time() - start


def _timed(action: Callable[[], Any]) -> tuple[Any, float, float]:
    """(result or None when the budget ran out, CPU seconds, wall seconds)."""
    cpu, wall = process_time(), time.perf_counter()
    try:
        result = action()
    except OutOfBudget:
        result = None
    return result, process_time() - cpu, time.perf_counter() - wall


def bench_solve(quick: bool, cap: float, only: set[str] | None) -> list[dict[str, Any]]:
    boards = SOLVE_BOARDS if quick else {**SOLVE_BOARDS, **SLOW_BOARDS}
    rows = []
    for name, (rules, known) in boards.items():
        if only is not None and name not in only:
            continue
        game = Game(rules)
        solver = Solver(rules, table_buckets=LARGE_BUCKETS, clock=process_time)
        position = solver.start(game, Budget(seconds=cap))
        value, cpu, wall = _timed(partial(solver.value, position))
        nodes = solver.nodes
        row: dict[str, Any] = {
            "board": name,
            "result": f"unproven after {cap:g} s" if value is None else _RESULTS[value],
            "known": known,
            "nodes": nodes,
            "nodes_per_s": round(nodes / cpu) if cpu else None,
            "cpu_s": round(cpu, 3),
            "wall_s": round(wall, 3),
            "table": solver.table_size,
        }
        if value:  # a win or a loss: how far the end is, under its own cap
            position = solver.start(game, Budget(seconds=cap))
            plies, cpu, wall = _timed(partial(root_distance, solver, position, value))
            row["plies"] = plies if plies is not None else f"not measured after {cap:g} s"
            row["distance_nodes"] = solver.nodes
            row["distance_cpu_s"] = round(cpu, 3)
        rows.append(row)
        _say(f"solve {name}: {row}")
    return rows


def bench_mcts(seconds: float) -> list[dict[str, Any]]:
    rows = []
    for name, (rules, moves) in MCTS_BOARDS.items():
        game = Game.replay(rules, moves)
        bot = MctsBot(random.Random(1), Budget(seconds=seconds), clock=process_time)
        bot.choose(game)
        stats = bot.last_stats
        rows.append(
            {
                "board": name,
                "playouts": stats.iterations,
                "playouts_per_s": round(stats.iterations / stats.seconds),
            }
        )
        _say(f"mcts {name}: {rows[-1]}")
    return rows


def _positions(rules: Rules, count: int, seed: int) -> list[Game]:
    """Unfinished positions of seeded random games, 0 to half the board filled."""
    rng = random.Random(seed)
    found: list[Game] = []
    while len(found) < count:
        game = Game(rules)
        for _ in range(rng.randrange(0, rules.cells // 2)):
            if game.is_over:
                break
            game.play(rng.choice(game.legal_moves()))
        if not game.is_over:
            found.append(game)
    return found


def _move_cost(level: str, budget: Budget, game: Game) -> float:
    bot = make_bot(level, seed=1, budget=budget)
    return _cpu(partial(bot.choose, game))[1]


def bench_moves(positions: int) -> list[dict[str, Any]]:
    """Median and worst cost of one bot move (a new bot each time: nothing cached)."""
    boards = {
        "3×3 k=3": Rules(3, 3, 3),
        "7×6 k=4 gravity": Rules(6, 7, 4, gravity=True),
        "15×15 k=5": Rules(15, 15, 5),
    }
    rows = []
    for name, rules in boards.items():
        games = _positions(rules, positions, seed=3)
        for level in ("random", "easy", "medium", "perfect"):
            budget = UNLIMITED if rules.cells <= 9 else Budget(seconds=1.0)
            costs = sorted(_move_cost(level, budget, game) for game in games)
            rows.append(
                {
                    "board": name,
                    "level": level,
                    "median_ms": round(statistics.median(costs) * 1000, 3),
                    "max_ms": round(costs[-1] * 1000, 3),
                }
            )
            _say(f"move {name} {level}: {rows[-1]}")
    return rows


def bench_analysis() -> list[dict[str, Any]]:
    cases = [
        ("3×3 k=3, empty", Rules(3, 3, 3), UNLIMITED),
        ("4×4 k=3, empty", Rules(4, 4, 3), UNLIMITED),
        ("4×4 k=4, empty", Rules(4, 4, 4), UNLIMITED),
        ("5×5 k=4, empty, 0.5 s", Rules(5, 5, 4), Budget(seconds=0.5)),
        ("7×6 k=4 gravity, empty, 1 s", Rules(6, 7, 4, gravity=True), Budget(seconds=1.0)),
    ]
    rows = []
    for name, rules, budget in cases:
        solver = Solver(rules, clock=process_time)
        analysis, seconds = _cpu(partial(analyze, Game(rules), budget, solver=solver))
        rows.append(
            {
                "position": name,
                "moves": len(analysis.moves),
                "proven": sum(m.proven for m in analysis.moves),
                "measured": sum(m.moves_to_end is not None for m in analysis.moves),
                "nodes": analysis.nodes,
                "seconds": round(seconds, 3),
            }
        )
        _say(f"analysis {name}: {rows[-1]}")
    return rows


def bench_league(games: int, hard_playouts: int) -> list[dict[str, Any]]:
    budgets = {"hard": Budget(seconds=None, nodes=hard_playouts), "perfect": UNLIMITED}
    results = []
    for name, rules, count in (
        ("3×3 k=3", Rules(3, 3, 3), games),
        ("3×3 k=3 misère", Rules(3, 3, 3, misere=True), games),
        ("5 cols × 4 rows k=4 gravity", Rules(4, 5, 4, gravity=True), max(2, games // 2)),
    ):
        league, seconds = _cpu(partial(run_league, rules, LEVELS, count, budgets=budgets))
        results.append(
            {
                "board": name,
                "games_per_pair": count,
                "seconds": round(seconds, 1),
                **league.to_dict(),
            }
        )
        _say(f"league {name}: {[s.to_dict() for s in league.standings]}")
    big = Rules(15, 15, 5)
    for strong, weak in (("hard", "medium"), ("medium", "easy"), ("easy", "random")):
        score = {strong: 0, weak: 0, "draw": 0}
        for seed in range(max(1, games // 2)):
            for strong_plays in ("X", "O"):
                bots = [
                    make_bot(strong, seed=seed, budget=budgets.get(strong)),
                    make_bot(weak, seed=seed, budget=budgets.get(weak)),
                ]
                if strong_plays == "O":
                    bots.reverse()
                outcome = play_game(big, bots).outcome
                assert outcome is not None
                winner = outcome.winner
                key = "draw" if winner is None else strong if winner == strong_plays else weak
                score[key] += 1
        results.append({"board": "15×15 k=5", "match": f"{strong} v {weak}", **score})
        _say(f"15×15 {strong} v {weak}: {score}")
    return results


def _say(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.solver", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="skip the slowest boards")
    parser.add_argument(
        "--sections", default="solve,mcts,moves,analysis,league", help="which parts to run"
    )
    parser.add_argument("--league-games", type=int, default=10, help="games a pair (3×3)")
    parser.add_argument("--hard-playouts", type=int, default=3000, help="hard's playouts a move")
    parser.add_argument("--mcts-seconds", type=float, default=2.0, help="CPU seconds per board")
    parser.add_argument(
        "--cap-s", type=float, default=120.0, help="CPU seconds a board may take (solve)"
    )
    parser.add_argument("--boards", default=None, help="only these solve boards (by name)")
    parser.add_argument(
        "--pons-src", default=PONS_SOURCE, help="Pons' solver: a git source or a folder (versus)"
    )
    parser.add_argument(
        "--pons-dir", default="artifacts/pons", help="where Pons' solver is built (versus)"
    )
    parser.add_argument("--json", action="store_true", help="print everything as JSON")
    args = parser.parse_args(argv)
    sections = {s.strip() for s in args.sections.split(",")}
    report: dict[str, Any] = {"python": platform.python_version()}
    if "solve" in sections:
        only = None if args.boards is None else {b.strip() for b in args.boards.split(",")}
        report["solve"] = bench_solve(args.quick, args.cap_s, only)
    if "mcts" in sections:
        report["mcts"] = bench_mcts(args.mcts_seconds)
    if "moves" in sections:
        report["moves"] = bench_moves(10 if args.quick else 30)
    if "analysis" in sections:
        report["analysis"] = bench_analysis()
    if "versus" in sections:
        only = None if args.boards is None else {b.strip() for b in args.boards.split(",")}
        report["versus"] = bench_versus(args.cap_s, args.pons_src, Path(args.pons_dir), only)
        report["load_average"] = [round(load, 2) for load in os.getloadavg()]
    if "league" in sections:
        report["league"] = bench_league(args.league_games, args.hard_playouts)
    print(json.dumps(report, ensure_ascii=False, indent=None if args.json else 2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
