"""Tests of bench/: the load generator and benchmark scripts, run small."""
