"""``python -m bench.load [options]``: the same as ``tictactoe bench``."""

from __future__ import annotations

import sys

from server.cli import main

if __name__ == "__main__":
    sys.exit(main(["bench", *sys.argv[1:]]))
