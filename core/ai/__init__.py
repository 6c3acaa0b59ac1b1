"""Bots, a perfect-play solver and move analysis for the whole family (pure, stdlib only)."""

from __future__ import annotations

from .budget import DEFAULT_BUDGET, UNLIMITED, Budget
from .errors import BadBudget, UnknownBot, UnsupportedGame
from .solve import SolveResult, solve
from .solver import SearchProgress, Solver
from .symmetry import canonical_form, symmetries
from .values import Verdict

__all__ = [
    "DEFAULT_BUDGET",
    "UNLIMITED",
    "BadBudget",
    "Budget",
    "SearchProgress",
    "SolveResult",
    "Solver",
    "UnknownBot",
    "UnsupportedGame",
    "Verdict",
    "canonical_form",
    "solve",
    "symmetries",
]
