"""What the browser benches share with each other and with the e2e tests: Debian's Chromium
and its flags (no sandbox in a container, nothing in the background, never a download), a
new room over HTTP, and the nearest-rank percentile of their samples."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Sequence

__all__ = ["CHROMIUM", "CHROMIUM_ARGS", "create_room", "percentile"]

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def create_room(base: str) -> str:
    """A new private 3x3 room on the server at ``base`` (``http://host:port``)."""
    request = urllib.request.Request(
        f"{base}/api/rooms",
        data=json.dumps({"rules": {}, "public": False}).encode(),
        headers={"content-type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        room_id: str = json.load(answer)["room_id"]
        return room_id


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank ``q`` quantile (0 < q ≤ 1) of ``values``."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    rank = max(1, min(len(ordered), int(-(-q * len(ordered) // 1))))
    return ordered[rank - 1]
