"""A book build's progress file: JSON beside the book (or --progress), saved during the build
and read back when the same build is run again.

It holds the rules, ``leaf_nodes`` and the side of the build with its ``Snapshot`` (keys in
hex); a file from before builds had a side has none, and was a build of both sides.
"""

from __future__ import annotations

import json
from pathlib import Path

from core import Rules
from core.ai.book import BookSide, Snapshot
from core.ai.book.codec import FORMAT_VERSION

from ...ai_flags import fail
from .files import write_atomic

__all__ = ["read_progress", "save_progress"]


def read_progress(path: Path, rules: Rules, leaf_nodes: int) -> Snapshot | None:
    """The progress saved in ``path`` by a build of these rules and ``leaf_nodes``, or None
    when there is none; exits with why when it is damaged or of another build."""
    if not path.exists():
        return None
    try:
        saved = json.loads(path.read_text())
        same = Rules.from_dict(saved["rules"]) == rules and saved["leaf_nodes"] == leaf_nodes
        snapshot = Snapshot(
            BookSide(saved.get("side", BookSide.BOTH.value)),
            {int(k, 16): v for k, v in saved["done"].items()},
            {int(k, 16): v for k, v in saved["proven"].items()},
            {int(k, 16): v for k, v in saved["roles"].items()},
        )
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        fail(f"cannot resume from {path}: {exc}")
    if not same:
        fail(f"{path} is the progress of another build (rules or --leaf-nodes differ)")
    return snapshot


def save_progress(path: Path, rules: Rules, leaf_nodes: int, snapshot: Snapshot) -> None:
    data = {
        "version": FORMAT_VERSION,
        "rules": rules.to_dict(),
        "leaf_nodes": leaf_nodes,
        "side": snapshot.side.value,
        "done": {f"{k:x}": v for k, v in snapshot.done.items()},
        "proven": {f"{k:x}": v for k, v in snapshot.proven.items()},
        "roles": {f"{k:x}": v for k, v in snapshot.roles.items()},
    }
    write_atomic(path, json.dumps(data).encode())
