"""The test harness itself: the process guard of the tiers, timeouts reported as failures,
and the files' durations that order the run."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from pathlib import Path
from types import TracebackType

import pytest

from tests.support.schedule import file_durations
from tests.support.tiers import UnmarkedProcess, programs_refused
from tests.support.timeouts import with_line_numbers


def test_an_unmarked_test_cannot_start_a_program(request: pytest.FixtureRequest) -> None:
    with pytest.raises(UnmarkedProcess, match="'process' mark"), programs_refused(request.node):
        subprocess.run([sys.executable, "-c", "pass"], check=False)


def test_a_swallowed_refusal_is_raised_again_at_the_end(request: pytest.FixtureRequest) -> None:
    with (
        pytest.raises(UnmarkedProcess, match="started"),
        programs_refused(request.node),
        contextlib.suppress(UnmarkedProcess),  # the test swallows the first refusal
    ):
        subprocess.run([sys.executable, "-c", "pass"], check=False)


def test_a_traceback_entry_without_a_line_number_is_reported() -> None:
    """What a SIGALRM landing on an instruction without a line number gives (Python 3.11,
    e.g. in an exception handler's cleanup): pytest's own report of it raises TypeError."""
    try:
        raise pytest.fail.Exception("Timeout (>1.0s) from pytest-timeout.")
    except pytest.fail.Exception as caught:
        error = caught
    assert error.__traceback__ is not None
    frame = error.__traceback__.tb_frame
    lineless = [start for start, _, line in frame.f_code.co_lines() if line is None]
    if not lineless:
        pytest.skip("this Python gives every instruction of this function a line number")
    error.__traceback__ = TracebackType(None, frame, lineless[0], -1)
    lineno: int | None = error.__traceback__.tb_lineno  # typeshed says int
    assert lineno is None
    with pytest.raises(TypeError):
        pytest.ExceptionInfo.from_exception(error).getrepr()

    report = with_line_numbers(pytest.ExceptionInfo.from_exception(error)).getrepr()
    assert "Timeout (>1.0s)" in str(report)


def junit(path: Path, cases: list[tuple[str, float]]) -> Path:
    body = "".join(f'<testcase classname="{c}" name="t" time="{t}"/>' for c, t in cases)
    path.write_text(f'<testsuites><testsuite name="pytest">{body}</testsuite></testsuites>')
    return path


def test_durations_sum_each_file_over_the_tiers_reports(tmp_path: Path) -> None:
    default = junit(
        tmp_path / "default.xml",
        [("tests.test_harness", 2.5), ("tests.test_harness", 1.0), ("tests.test_layering", 9.0)],
    )
    slow = junit(tmp_path / "slow.xml", [("tests.test_harness", 4.0), ("tests.nowhere", 50.0)])
    # summed over both reports; a file under 3 s is left out, an unknown module ignored
    assert file_durations(default, slow) == {
        "tests/test_layering.py": 9,
        "tests/test_harness.py": 8,
    }
    assert file_durations(default) == {"tests/test_layering.py": 9, "tests/test_harness.py": 4}
