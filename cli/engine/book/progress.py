"""A book build's progress file: JSON beside the book (or --progress), saved during the build
and read back when the same build is run again."""

from __future__ import annotations

import json
from pathlib import Path

from core import Rules
from core.ai.book.build import Snapshot
from core.ai.book.codec import FORMAT_VERSION

from ...ai_flags import fail
from .files import write_atomic

__all__ = ["read_progress", "save_progress"]


def read_progress(
    path: Path, rules: Rules, leaf_nodes: int
) -> tuple[dict[int, int], dict[int, int], dict[int, int]]:
    if not path.exists():
        return {}, {}, {}
    try:
        saved = json.loads(path.read_text())
        same = Rules.from_dict(saved["rules"]) == rules and saved["leaf_nodes"] == leaf_nodes
        done = {int(k, 16): v for k, v in saved["done"].items()}
        proven = {int(k, 16): v for k, v in saved["proven"].items()}
        roles = {int(k, 16): v for k, v in saved["roles"].items()}
    except (OSError, ValueError, KeyError, TypeError) as exc:
        fail(f"cannot resume from {path}: {exc}")
    if not same:
        fail(f"{path} is the progress of another build (rules or --leaf-nodes differ)")
    return done, proven, roles


def save_progress(path: Path, rules: Rules, leaf_nodes: int, snapshot: Snapshot) -> None:
    done, proven, roles = snapshot
    data = {
        "version": FORMAT_VERSION,
        "rules": rules.to_dict(),
        "leaf_nodes": leaf_nodes,
        "done": {f"{k:x}": v for k, v in done.items()},
        "proven": {f"{k:x}": v for k, v in proven.items()},
        "roles": {f"{k:x}": v for k, v in roles.items()},
    }
    write_atomic(path, json.dumps(data).encode())
