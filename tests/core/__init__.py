"""Tests of core/: the pure engine (rules, board, wins, game, codec, perft, tournament)."""
