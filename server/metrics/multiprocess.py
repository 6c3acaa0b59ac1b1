"""A private directory for the workers' metric values, for ``tictactoe serve --workers N``.

prometheus_client's multiprocess mode keeps each worker's values in files of the directory
named by ``PROMETHEUS_MULTIPROC_DIR``; it must be set before the workers import
prometheus_client and must start empty, or a scrape would add an earlier run's counts. So
``serve`` makes a fresh one (mode 0700) before the workers start, and removes it at exit.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager

from .exposition import ENV

__all__ = ["private_directory"]


@contextmanager
def private_directory() -> Iterator[str]:
    """Set ``PROMETHEUS_MULTIPROC_DIR`` to a fresh private directory for the block (the
    processes started in it inherit it); restore the variable and remove the directory after."""
    directory = tempfile.mkdtemp(prefix="tictactoe-metrics-")
    previous = os.environ.get(ENV)
    os.environ[ENV] = directory
    try:
        yield directory
    finally:
        if previous is None:
            os.environ.pop(ENV, None)
        else:
            os.environ[ENV] = previous
        shutil.rmtree(directory, ignore_errors=True)
