"""The test harness itself: the process guard of the tiers, and timeouts reported as failures."""

from __future__ import annotations

import contextlib
import subprocess
import sys
from types import TracebackType

import pytest

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
