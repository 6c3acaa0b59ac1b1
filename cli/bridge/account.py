"""The bridge as a bot account (docs/protocol.md, "Bots"), through client.bot.

``serve_account`` says ``hello`` on the bot socket with the account's token, accepts each
challenge whose rules the engine's handshake declared (and declines the others, so their
challengers are not kept waiting), and plays each seat it is given with an engine process of
its own, games side by side (the server's ``bot_max_games`` bounds how many). After
``games`` games (None: until stopped) it closes the socket. One game's engine failing resigns
that game only: the next one gets a fresh engine. With ``challenge`` (another bot's id) it
first challenges that bot to a classic game, ``rated`` or not (a rated game between bots
counts in the bots' pool), and hears of its own seat on its socket like any other.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass

from client import ClientError, Refused
from client.aio import AsyncRoomClient
from client.bot import BotClient, challenge_bot, run_bot
from client.wire import Message
from core import GameError, Rules

from .driver import Engine, LineSink
from .errors import EngineError
from .online import ENGINE_FAILED, FINISHED, NOT_PLAYED, Log, play_seated, resign
from .protocol import EngineInfo

__all__ = ["EngineCommand", "serve_account"]


@dataclass(frozen=True, slots=True)
class EngineCommand:
    """How to start the engine for each game."""

    command: str
    handshake_timeout: float
    on_stderr: LineSink | None = None
    on_info: LineSink | None = None

    async def start(self) -> Engine:
        return await Engine.start(
            self.command,
            handshake_timeout=self.handshake_timeout,
            on_stderr=self.on_stderr,
            on_info=self.on_info,
        )


def _accepts(info: EngineInfo, log: Log) -> Callable[[Message], bool]:
    def accept(challenge: Message) -> bool:
        who = (challenge.get("from") or {}).get("name", "someone")
        try:
            rules = Rules.from_dict(challenge.get("rules") or {})
        except GameError as exc:
            log(f"declined {who}'s challenge: its rules do not read ({exc})")
            return False
        if not info.plays(rules):
            log(f"declined {who}'s challenge: the engine does not play {rules.describe()}")
            return False
        log(f"accepted {who}'s challenge: {rules.describe()}")
        return True

    return accept


async def serve_account(
    http_base: str,
    token: str,
    engine: EngineCommand,
    info: EngineInfo,
    *,
    move_time: float,
    name: str | None,
    games: int | None,
    log: Log,
    challenge: str | None = None,
    rated: bool = False,
) -> int:
    """Be the bot until ``games`` games are played (or forever); an exit code: 0, or
    ENGINE_FAILED when an engine failed in one of them, NOT_PLAYED when the token is
    refused."""
    bot = BotClient(http_base, token, name=name)
    try:
        welcome = await bot.connect()
    except Refused as exc:
        log(f"error: the bot socket refused the token: {exc.code}: {exc}")
        return NOT_PLAYED
    log(f"online as the bot {welcome.get('bot', {}).get('name')} at {http_base}")
    if challenge is not None:
        try:
            made = await asyncio.to_thread(
                challenge_bot, http_base, challenge, {"rated": rated}, token=token
            )
        except ClientError as exc:
            code = f"{exc.code}: " if isinstance(exc, Refused) else ""
            log(f"error: the challenge to the bot {challenge} was refused: {code}{exc}")
            await bot.close()
            return NOT_PLAYED
        kind = "a rated" if made.get("rated") else "a casual"
        log(f"challenged the bot {challenge} to {kind} game in {made.get('room_id')}")
    results: list[int] = []
    enough = asyncio.Event()

    async def play(room: AsyncRoomClient, seat: Message) -> None:
        where = str(seat.get("room_id"))

        def say(line: str) -> None:
            log(f"[{where}] {line}")

        say(f"seated as {room.mark} against {(seat.get('opponent') or {}).get('name')}")
        try:
            running = await engine.start()
        except EngineError as exc:
            say(exc.report())
            await resign(room, say)
            results.append(ENGINE_FAILED)
        else:
            try:
                results.append(await play_seated(room, running, move_time=move_time, log=say))
            finally:
                await running.quit()
        if games is not None and len(results) >= games:
            enough.set()

    runner = asyncio.create_task(run_bot(bot, play, accept=_accepts(info, log), notify=log))
    stop = asyncio.create_task(enough.wait())
    try:
        await asyncio.wait({runner, stop}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in (runner, stop):
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await stop
        with contextlib.suppress(asyncio.CancelledError):
            try:
                await runner
            except Refused as exc:
                log(f"error: the server refused the bot's token: {exc.code}: {exc}")
                results.append(NOT_PLAYED)
        await bot.close()
    return max(results, default=FINISHED)  # ENGINE_FAILED (3) over NOT_PLAYED (2) over 0
