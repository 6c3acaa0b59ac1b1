"""Speed machinery with a plain fallback, all of it off with ``tictactoe serve --no-fastpath``."""

from __future__ import annotations

from .collector import Collector
from .direct_send import frame_of
from .raw_send import RawSend
from .sender import FastSender, PlainSender, Sender, sender_for

__all__ = ["Collector", "FastSender", "PlainSender", "RawSend", "Sender", "frame_of", "sender_for"]
