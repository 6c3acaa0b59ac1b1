"""Bots, a perfect-play solver and move analysis for the whole family (pure, stdlib only).

- ``make_bot(level, seed=..., budget=...)``: a ``Bot`` of level ``random``, ``easy``,
  ``medium``, ``hard`` (Monte Carlo tree search) or ``perfect`` (the solver, which says
  when a move is not proven); each answers ``choose(game) -> Move`` within its budget
  (default one second).
- ``solve(game, budget)``: the value of a position (win/draw/loss for the side to move,
  who wins from the start, the distance to the end, best moves), proven or not within the
  budget. The solver searches bitboards (``core.ai.bitboard``) with a bounded
  transposition table (``core.ai.table``).
- ``analyze(game, budget)``: every legal move with its value (proven) or a heuristic score.
- ``BotJob`` / ``run_bot_job``: a bot move as a picklable job, to run off an event loop;
  ``answer_bot_job`` also says whether the move was proven (``BotAnswer``).
- ``run_league``: bots against bots through ``core.tournament``'s round robin.
"""

from __future__ import annotations

from .analysis import Analysis, MoveAnalysis, analyze
from .bot import Bot, RandomBot
from .budget import DEFAULT_BUDGET, UNLIMITED, Budget, as_budget
from .errors import BadBudget, UnknownBot, UnsupportedGame
from .factory import LEVELS, make_bot
from .heuristic import EASY, MEDIUM, HeuristicBot
from .league import BotStanding, League, Match, run_league
from .mcts import MctsBot
from .offload import BotAnswer, BotJob, answer_bot_job, run_bot_job
from .perfect import PerfectBot
from .selfplay import play_game
from .solve import SolveResult, result_from_start, solve
from .solver import SearchProgress, Solver
from .symmetry import canonical_form, symmetries
from .values import Verdict

__all__ = [
    "BotAnswer",
    "answer_bot_job",
    "DEFAULT_BUDGET",
    "EASY",
    "LEVELS",
    "MEDIUM",
    "UNLIMITED",
    "Analysis",
    "BadBudget",
    "Bot",
    "BotJob",
    "BotStanding",
    "Budget",
    "HeuristicBot",
    "League",
    "Match",
    "MctsBot",
    "MoveAnalysis",
    "PerfectBot",
    "RandomBot",
    "SearchProgress",
    "SolveResult",
    "Solver",
    "UnknownBot",
    "UnsupportedGame",
    "Verdict",
    "analyze",
    "as_budget",
    "canonical_form",
    "make_bot",
    "play_game",
    "result_from_start",
    "run_bot_job",
    "run_league",
    "solve",
    "symmetries",
]
