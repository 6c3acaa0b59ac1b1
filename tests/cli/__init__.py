"""Tests of cli/: the terminal commands (play, connect, replay, solve, input)."""
