"""A capacity plan past this machine (``python -m bench.capacity measure|model|check``).

``measure`` prices the per-unit costs on this machine (server CPU per move, Redis CPU per
move and memory per live room, memory per idle connection, HAProxy per move and per
connection); ``model`` sizes 10k, 100k and 1M games from them (processes, hosts, Redis
Cluster shards, pub/sub, descriptors, ports); ``check`` runs the deployment scaled down on a
real Redis Cluster and holds the figures against the model. docs/operations.md ("Capacity
plan") has the commands and the table; ``REFERENCE`` is the unit-cost file it came from.
"""

from __future__ import annotations

from pathlib import Path

from .model import Hosts, Load, Plan, Prediction, Units, plan, predict

__all__ = ["REFERENCE", "Hosts", "Load", "Plan", "Prediction", "Units", "plan", "predict"]

REFERENCE = Path(__file__).with_name("reference.json")
"""The measured unit costs docs/operations.md's sizing table was computed from."""
