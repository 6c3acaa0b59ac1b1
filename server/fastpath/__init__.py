"""Speed machinery with a plain fallback, all of it off with ``tictactoe serve --no-fastpath``."""

from __future__ import annotations

from .collector import Collector
from .direct_send import frame_of, transport_ready
from .raw_send import RawSend
from .sender import FastSender, fast_sender

__all__ = ["Collector", "FastSender", "RawSend", "fast_sender", "frame_of", "transport_ready"]
