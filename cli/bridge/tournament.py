"""The bridge as a bot account in a tournament or an arena (docs/tournaments.md, bots).

The bot's owner enters it with its identity (as a person enters); ``play_tournament`` then
follows the tournament's socket for the bot (client.tournament.TournamentFeed) and plays each
game the view's ``your_game`` names, joining its room with the bot's token and starting an
engine process for it, until the tournament is finished. Any kind works: the view says
which game is the bot's, whatever the pairing.
"""

from __future__ import annotations

import asyncio
from typing import Any

from client import Seat, TournamentLink
from client.aio import AsyncRoomClient
from client.tournament import TournamentFeed
from client.wire import room_socket_url

from .account import EngineCommand
from .errors import EngineError
from .online import ENGINE_FAILED, FINISHED, Log, play_seated, resign

__all__ = ["bot_id_of", "play_tournament"]


def bot_id_of(token: str) -> str:
    """The bot's player id, from its token (``tb1.<player_id>.<random>``, docs/protocol.md)."""
    version, _, rest = token.partition(".")
    player_id, _, secret = rest.rpartition(".")
    if version != "tb1" or not player_id or not secret:
        raise ValueError("the token is not a bot token (tb1.<player_id>.<...>)")
    return player_id


def _standings(view: dict[str, Any]) -> str:
    rows = [f"{row['rank']}. {row['name']} {row['points']}" for row in view.get("standings", [])]
    return "; ".join(rows) or "no standings"


async def play_tournament(
    link: TournamentLink,
    token: str,
    engine: EngineCommand,
    *,
    move_time: float,
    name: str | None,
    log: Log,
) -> int:
    """Play the bot's games of the tournament at ``link`` until it is finished; 0, or
    ENGINE_FAILED when an engine failed in one of them."""
    feed = TournamentFeed(link, bot_id_of(token), notify=log)
    played: set[str] = set()
    results: list[int] = []
    try:
        while True:
            view = await asyncio.to_thread(feed.next_view)
            if view["status"] == "finished":
                log(f"the tournament is finished: {_standings(view)}")
                return max(results, default=FINISHED)
            game = view.get("your_game")
            if not game or game["room_id"] in played:
                continue
            room_id = str(game["room_id"])
            played.add(room_id)
            feed.close()  # nobody reads it while the game is played; reopened after
            results.append(
                await _play_game(
                    link, room_id, token, engine, move_time=move_time, name=name, log=log
                )
            )
    finally:
        feed.close()


async def _play_game(
    link: TournamentLink,
    room_id: str,
    token: str,
    engine: EngineCommand,
    *,
    move_time: float,
    name: str | None,
    log: Log,
) -> int:
    def say(line: str) -> None:
        log(f"[{room_id}] {line}")

    room = AsyncRoomClient(
        room_socket_url(link.http_base, room_id), Seat("player", name, bot_token=token)
    )
    try:
        await room.join()
        say(f"seated as {room.mark}")
        try:
            running = await engine.start()
        except EngineError as exc:
            say(exc.report())
            await resign(room, say)
            return ENGINE_FAILED
        try:
            return await play_seated(room, running, move_time=move_time, log=say)
        finally:
            await running.quit()
    finally:
        await room.close()
