"""Tests of core/ai/: the bots, the solver and the analysis, against brute-force references."""
