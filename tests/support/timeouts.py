"""A test that overruns its timeout fails like any other test, and the run goes on.

pytest-timeout's signal method raises the timeout from a SIGALRM handler, at whatever
bytecode instruction the test was running. On Python 3.11 some instructions have no line
number, so the traceback then holds an entry whose ``tb_lineno`` is None, and pytest's
failure report (``lineno - 1``) raised a TypeError: an INTERNALERROR that ended the whole
run. ``with_line_numbers`` gives such entries their function's first line instead.
"""

from __future__ import annotations

from types import TracebackType

import pytest

__all__ = ["with_line_numbers"]


def _numbered(tb: TracebackType | None) -> tuple[TracebackType | None, bool]:
    """The chain ``tb`` with every entry numbered, and whether any entry had to be."""
    entries: list[TracebackType] = []
    while tb is not None:
        entries.append(tb)
        tb = tb.tb_next
    linenos: list[int | None] = [entry.tb_lineno for entry in entries]  # typeshed says int
    if None not in linenos:
        return (entries[0] if entries else None), False
    chain: TracebackType | None = None
    for entry, lineno in zip(reversed(entries), reversed(linenos), strict=True):
        first = entry.tb_frame.f_code.co_firstlineno
        chain = TracebackType(chain, entry.tb_frame, entry.tb_lasti, lineno or first)
    return chain, True


def with_line_numbers(
    excinfo: pytest.ExceptionInfo[BaseException],
) -> pytest.ExceptionInfo[BaseException]:
    """``excinfo``, or the same exception (and those it was raised from or during) with a
    line number on every traceback entry when one lacked it."""
    repaired = False
    seen: set[int] = set()
    pending: list[BaseException | None] = [excinfo.value]
    while pending:
        exc = pending.pop()
        if exc is None or id(exc) in seen:
            continue
        seen.add(id(exc))
        chain, changed = _numbered(exc.__traceback__)
        if changed:
            exc.__traceback__ = chain
            repaired = True
        pending += [exc.__cause__, exc.__context__]
        if isinstance(exc, BaseExceptionGroup):
            pending += exc.exceptions
    if not repaired:
        return excinfo
    return pytest.ExceptionInfo.from_exception(excinfo.value)
