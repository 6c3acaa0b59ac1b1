"""Tests of server/cli/: the terminal commands (play, connect, replay, solve, input)."""
