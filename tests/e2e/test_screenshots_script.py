"""``python -m tests.support.screenshots`` runs: a scene's pictures, each size and theme."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.support import screenshots

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def test_the_lobby_scene_writes_its_eight_pictures(tmp_path: Path) -> None:
    assert screenshots.main(["--only", "lobby", "--out", str(tmp_path)]) == 0
    names = sorted(path.name for path in tmp_path.glob("*.png"))
    assert names == sorted(
        f"{state}-{size}-{scheme}.png"
        for state in ("lobby", "lobby-custom")
        for size in ("desktop", "phone")
        for scheme in ("light", "dark")
    )
    assert all(path.stat().st_size > 10_000 for path in tmp_path.glob("*.png"))
