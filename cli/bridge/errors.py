"""What can go wrong with an engine, one type per failure, so the bridge decides by type.

Every error names the engine (its command line) and, when the process has ended or
misbehaved, carries the last lines it wrote on stderr: that is where an engine says why.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = [
    "EngineCrashed",
    "EngineError",
    "EngineProtocolError",
    "EngineRefused",
    "EngineStartFailed",
    "EngineTimeout",
    "IllegalEngineMove",
    "UnsupportedRules",
]


class EngineError(Exception):
    """The root: the engine could not give what was asked. ``stderr`` is its last lines."""

    def __init__(self, message: str, *, stderr: Sequence[str] = ()) -> None:
        super().__init__(message)
        self.stderr = tuple(stderr)

    def report(self) -> str:
        """The message and the engine's last stderr lines, for a person reading a log."""
        if not self.stderr:
            return str(self)
        tail = "\n".join(f"  engine stderr: {line}" for line in self.stderr)
        return f"{self}\n{tail}"


class EngineStartFailed(EngineError):
    """The command could not be run at all (not found, not executable)."""


class EngineCrashed(EngineError):
    """The process ended (or closed its stdout) while the bridge still needed it."""

    def __init__(self, message: str, *, returncode: int | None, stderr: Sequence[str] = ()) -> None:
        super().__init__(message, stderr=stderr)
        self.returncode = returncode


class EngineTimeout(EngineError):
    """No answer in time; ``phase`` is ``"handshake"`` or ``"move"``. The engine is stopped:
    a late answer could be taken for the answer to a later question."""

    def __init__(self, message: str, *, phase: str, stderr: Sequence[str] = ()) -> None:
        super().__init__(message, stderr=stderr)
        self.phase = phase


class EngineProtocolError(EngineError):
    """The engine said something the protocol does not allow (a malformed ``bestmove``,
    a handshake without its name, a ``supports`` line the bridge cannot read)."""


class EngineRefused(EngineError):
    """The engine answered ``error TEXT`` instead of a move."""


class IllegalEngineMove(EngineError):
    """The engine's ``bestmove`` names a move the rules do not allow here; the bridge never
    sends it on. ``move`` is the engine's text, ``reason`` the engine's rule that refused it."""

    def __init__(self, move: str, reason: str, *, stderr: Sequence[str] = ()) -> None:
        super().__init__(f"the engine played an illegal move {move!r}: {reason}", stderr=stderr)
        self.move = move
        self.reason = reason


class UnsupportedRules(EngineError):
    """The engine's handshake did not declare these rules; it is never asked to play them."""
