"""``python -m bench.guesses``: the guesses benchmark (bench.guesses.run)."""

from __future__ import annotations

import sys

from .run import main

if __name__ == "__main__":
    sys.exit(main())
