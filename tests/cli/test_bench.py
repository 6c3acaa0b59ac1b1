"""``tictactoe bench`` without the ``bench`` extra: one line naming the extra, nothing run.

(The real case, a wheel installed without the extra, is in tests/test_packaging.py.)
"""

from __future__ import annotations

import sys

import pytest

from cli import main
from cli.bench import BENCH_EXTRA, missing_extra


def test_the_dev_install_has_the_bench_extra() -> None:
    assert missing_extra() == []


def test_bench_without_its_extra_says_which_to_install(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    for name in BENCH_EXTRA:
        monkeypatch.setitem(sys.modules, name, None)  # find_spec answers None: not installed
    assert missing_extra() == list(BENCH_EXTRA)
    assert main(["bench", "--games", "1", "--configs", "memory"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    (line,) = err.strip().splitlines()
    assert line.startswith("tictactoe bench: error: psutil not installed")
    assert "pip install 'tictactoe-server[bench]'" in line
