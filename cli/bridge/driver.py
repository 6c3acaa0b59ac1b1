"""An engine process, driven over the engine protocol with asyncio (docs/engine-protocol.md).

``Engine.start(command)`` runs the command, says ``tttengine 1`` and reads the handshake;
``best_move(game, movetime=..., clock=...)`` asks for a move and returns it only once the
rules accept it. Everything that can go wrong is a typed error (cli.bridge.errors): a
process that cannot start, ends or closes its stdout (EngineCrashed, with its exit code), an
answer that does not come in time (EngineTimeout: the process is then killed, so that a late
answer is never read as the answer to the next question), a line the protocol does not allow,
an ``error`` answer, an illegal move. The engine's stderr is read all along (a full pipe would
block it), handed to ``on_stderr`` and its last lines kept for the errors' reports.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import signal
from collections import deque
from collections.abc import Callable, Sequence

from core import Game, GameError, GameOver, Move

from .errors import (
    EngineCrashed,
    EngineError,
    EngineProtocolError,
    EngineRefused,
    EngineStartFailed,
    EngineTimeout,
    IllegalEngineMove,
    UnsupportedRules,
)
from .protocol import HELLO, ClockTimes, EngineInfo, Handshake, go_line, parse_cell, position_line

__all__ = ["HANDSHAKE_TIMEOUT", "MOVE_GRACE", "Engine", "engine_argv"]

HANDSHAKE_TIMEOUT = 10.0
"""Seconds an engine has to start and answer ``tttengine 1`` with ``ready``."""

MOVE_GRACE = 0.5
"""Seconds past ``movetime`` the bridge still waits for ``bestmove``: the process's own
start-up of the answer and the pipe, not thinking time (the engine is told ``movetime``)."""

STDERR_LINES = 20
"""How many of the engine's last stderr lines an error carries."""

MAX_LINE = 64 * 1024
"""Longest line read from the engine; a longer one is a protocol error, not a memory hog."""

_EOF = None

LineSink = Callable[[str], None]


def engine_argv(command: str) -> list[str]:
    """The argument list of ``--engine "CMD ARGS"`` (shell quoting, no shell run)."""
    try:
        argv = shlex.split(command)
    except ValueError as exc:
        raise EngineStartFailed(f"cannot read the engine command {command!r}: {exc}") from exc
    if not argv:
        raise EngineStartFailed("the engine command is empty")
    return argv


class Engine:
    """One running engine process. Made by ``start``; ``quit`` (or ``async with``) ends it."""

    def __init__(
        self,
        process: asyncio.subprocess.Process,
        argv: Sequence[str],
        *,
        on_stderr: LineSink | None,
        on_info: LineSink | None,
    ) -> None:
        self._process = process
        self.argv = tuple(argv)
        self._on_info = on_info
        self._on_stderr = on_stderr
        self._lines: asyncio.Queue[str | EngineError | None] = asyncio.Queue()
        self._stderr: deque[str] = deque(maxlen=STDERR_LINES)
        self._readers = [
            asyncio.create_task(self._read_stdout()),
            asyncio.create_task(self._read_stderr()),
        ]
        self.info: EngineInfo | None = None
        self._broken: EngineError | None = None

    # -- starting and stopping ------------------------------------------------------------

    @classmethod
    async def start(
        cls,
        command: str | Sequence[str],
        *,
        handshake_timeout: float = HANDSHAKE_TIMEOUT,
        on_stderr: LineSink | None = None,
        on_info: LineSink | None = None,
    ) -> Engine:
        """The engine of ``command`` (a command line, or an argument list), handshake done;
        its name, version and rules are then ``info``."""
        argv = engine_argv(command) if isinstance(command, str) else list(command)
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                limit=MAX_LINE,
                start_new_session=True,  # its own process group: stopped with its children
            )
        except OSError as exc:
            raise EngineStartFailed(f"cannot run the engine {argv[0]!r}: {exc}") from exc
        engine = cls(process, argv, on_stderr=on_stderr, on_info=on_info)
        try:
            engine.info = await engine._handshake(handshake_timeout)
        except BaseException:
            await engine.kill()
            raise
        return engine

    async def __aenter__(self) -> Engine:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.quit()

    @property
    def name(self) -> str:
        return self.info.name if self.info is not None else self.argv[0]

    @property
    def returncode(self) -> int | None:
        return self._process.returncode

    def stderr_tail(self) -> tuple[str, ...]:
        return tuple(self._stderr)

    async def quit(self, grace: float = 2.0) -> int | None:
        """Say ``quit`` and give the engine ``grace`` seconds to end, then stop it; its exit
        code (negative: the signal that ended it)."""
        if self._process.returncode is None and self._broken is None:
            with contextlib.suppress(EngineError):
                await self._send("quit")
            if self._process.stdin is not None:
                with contextlib.suppress(OSError):
                    self._process.stdin.close()  # EOF too, for an engine that reads to the end
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._process.wait(), grace)
        return await self.kill()

    async def kill(self) -> int | None:
        """End the process (and its process group) now, if it still runs."""
        if self._process.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._process.pid, signal.SIGKILL)
            with contextlib.suppress(ProcessLookupError):
                self._process.kill()
        code = await self._process.wait()
        for reader in self._readers:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(reader, 1.0)
        return code

    # -- questions ------------------------------------------------------------------------

    async def best_move(
        self, game: Game, *, movetime: float, clock: ClockTimes | None = None
    ) -> Move:
        """The engine's move for the side to move in ``game``, checked against the rules
        (``game`` is not changed). The engine is told ``movetime`` and waited for that long
        and MOVE_GRACE more."""
        if self._broken is not None:
            raise self._broken
        if game.is_over:
            raise GameOver("the game is over; there is no move to ask for")
        assert self.info is not None
        if not self.info.plays(game.rules):
            raise UnsupportedRules(
                f"{self.name} does not play {game.rules.describe()} (its handshake: "
                + "; ".join(str(line) for line in self.info.supports)
                + ")"
            )
        self._drop_unread()
        await self._send(position_line(game))
        await self._send(go_line(movetime, clock))
        deadline = asyncio.get_running_loop().time() + movetime + MOVE_GRACE
        while True:
            line = await self._next_line(deadline, "move")
            word, _, rest = line.partition(" ")
            if word == "bestmove":
                return self._checked(game, rest.strip())
            if word == "error":
                raise EngineRefused(
                    f"{self.name} refused to move: {rest or '(no reason)'}", stderr=self._stderr
                )
            self._tell_info(line)

    def _checked(self, game: Game, text: str) -> Move:
        try:
            move = parse_cell(text, game.rules)
        except ValueError as exc:
            raise EngineProtocolError(
                f"{self.name} answered a malformed bestmove: {exc}", stderr=self._stderr
            ) from exc
        try:
            return game.copy().play(move)
        except GameError as exc:
            raise IllegalEngineMove(text, str(exc), stderr=self._stderr) from exc

    async def _handshake(self, timeout: float) -> EngineInfo:
        await self._send(HELLO)
        deadline = asyncio.get_running_loop().time() + timeout
        handshake = Handshake()
        while True:
            line = await self._next_line(deadline, "handshake")
            try:
                info = handshake.feed(line)
            except ValueError as exc:
                raise EngineProtocolError(f"{self.argv[0]}: {exc}", stderr=self._stderr) from exc
            if info is not None:
                return info
            if line.partition(" ")[0] not in ("id", "supports"):
                self._tell_info(line)

    # -- the pipes ------------------------------------------------------------------------

    async def _send(self, line: str) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        try:
            stdin.write(line.encode() + b"\n")
            await stdin.drain()
        except (BrokenPipeError, ConnectionResetError) as exc:
            raise await self._crashed("stopped reading its input") from exc

    async def _next_line(self, deadline: float, phase: str) -> str:
        remaining = deadline - asyncio.get_running_loop().time()
        try:
            item = await asyncio.wait_for(self._lines.get(), max(remaining, 0.0))
        except TimeoutError:
            await self.kill()
            seconds = "handshake" if phase == "handshake" else "move"
            self._broken = EngineTimeout(
                f"{self.name} gave no {seconds} answer in time; it was stopped",
                phase=phase,
                stderr=self._stderr,
            )
            raise self._broken from None
        if item is _EOF:
            raise await self._crashed("closed its output")
        if isinstance(item, EngineError):
            await self.kill()
            self._broken = item
            raise item
        return item

    async def _crashed(self, what: str) -> EngineCrashed:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._process.wait(), 1.0)
        code = self._process.returncode
        if code is None:
            await self.kill()
        for reader in self._readers[1:]:  # its last words on stderr, if any are on the way
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(asyncio.shield(reader), 0.5)
        exited = "is still running" if code is None else f"exited with code {code}"
        self._broken = EngineCrashed(
            f"{self.name} {what} ({exited})", returncode=code, stderr=self._stderr
        )
        return self._broken

    def _drop_unread(self) -> None:
        """Lines left from an earlier answer (a second bestmove, late info) are not this
        question's answer: they are logged and dropped."""
        while not self._lines.empty():
            item = self._lines.get_nowait()
            if isinstance(item, str):
                self._tell_info(f"(unasked) {item}")
            else:
                self._lines.put_nowait(item)  # the end stays: the next read reports it
                return

    def _tell_info(self, line: str) -> None:
        if self._on_info is not None and line:
            self._on_info(line.removeprefix("info ").strip())

    async def _read_stdout(self) -> None:
        stdout = self._process.stdout
        assert stdout is not None
        while True:
            try:
                raw = await stdout.readline()
            except (ValueError, asyncio.LimitOverrunError):
                self._lines.put_nowait(
                    EngineProtocolError(
                        f"{self.name} wrote a line over {MAX_LINE} bytes", stderr=self._stderr
                    )
                )
                return
            if not raw:
                self._lines.put_nowait(_EOF)
                return
            self._lines.put_nowait(raw.decode("utf-8", "replace").rstrip("\r\n").strip())

    async def _read_stderr(self) -> None:
        stderr = self._process.stderr
        assert stderr is not None
        while True:
            try:
                raw = await stderr.readline()
            except (ValueError, asyncio.LimitOverrunError):
                continue  # an overlong stderr line is dropped; stderr is only for people
            if not raw:
                return
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            self._stderr.append(line)
            if self._on_stderr is not None:
                self._on_stderr(line)
