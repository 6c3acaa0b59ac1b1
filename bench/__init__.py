"""Benchmarks: the engine (``python -m bench.engine``) and the server load generator.

Figures go into docs/performance.md with the command that reproduces them; tests never
assert timings.
"""
