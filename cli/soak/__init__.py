"""``tictactoe soak``: its parser and help (parser.py), its checks across flags
(validation.py) and its run with the exit status (run.py); the soak itself is bench/soak/.
"""

from __future__ import annotations

from .parser import register

__all__ = ["register"]
