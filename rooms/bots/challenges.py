"""Challenges to a bot, and the seats of the games it plays (docs/protocol.md, "Bots").

A challenge opens a room at once, with the challenger's seat taken (its token goes back in
the HTTP answer, as quick play's does) and the room set to seat bots; the challenge waits on
the bot's desk (rooms.bots.desk) until the bot answers on its socket. Accepting reserves the
bot's own seat (a seat without a token: only the bot's token takes it, rooms.room.seating)
and leaves a seat entry on the desk; the bot then joins the room with its token. Declining,
or an answer that finds a limit reached, or no answer within ``CHALLENGE_TTL``, aborts the
room (``Retire``): the challenger sees its game end as ``aborted``. Of two answers to one
challenge exactly one finds it (``take`` is atomic).
"""

from __future__ import annotations

import json
import random
import secrets
from dataclasses import dataclass
from typing import Any

from core import Rules
from rooms.bots.desk import BotDesk
from rooms.bots.limits import BotLimits, limit_reached, today
from rooms.errors import ErrorCode, RoomError
from rooms.players import Player, PlayerDirectory
from rooms.room.commands import JoinReply, Reserve, Retire
from rooms.room.config import RoomSettings
from rooms.room.handled import Status
from rooms.service import Executed, RoomService

__all__ = [
    "CHALLENGE_TTL",
    "Challenge",
    "Challenger",
    "accept",
    "active_games",
    "check_available",
    "decline",
    "expire",
    "offer",
    "pick_bot",
    "seat_message",
    "tell_seat",
]

CHALLENGE_TTL = 60.0
"""Seconds a challenge waits for the bot's answer before it is withdrawn."""
CHALLENGE = "c:"
SEAT = "s:"


@dataclass(frozen=True, slots=True)
class Challenger:
    """Who challenges: a name, and the identity (a person's or a bot's) when there is one."""

    name: str
    player_id: str | None = None
    bot: bool = False

    def public(self) -> dict[str, Any]:
        return {"name": self.name, "player_id": self.player_id, "bot": self.bot}


@dataclass(frozen=True, slots=True)
class Challenge:
    challenge_id: str
    room_id: str
    challenger: Challenger
    rules: dict[str, Any]
    time_control: dict[str, float] | None
    rated: bool
    created: float

    def message(self) -> dict[str, Any]:
        """The ``challenge`` message of the bot socket."""
        return {
            "type": "challenge",
            "challenge_id": self.challenge_id,
            "room_id": self.room_id,
            "from": self.challenger.public(),
            "rules": self.rules,
            "time_control": self.time_control,
            "rated": self.rated,
            "expires_at": self.created + CHALLENGE_TTL,
        }

    def to_json(self) -> str:
        return json.dumps(
            {
                "id": self.challenge_id,
                "room": self.room_id,
                "from": self.challenger.public(),
                "rules": self.rules,
                "tc": self.time_control,
                "rated": self.rated,
                "created": self.created,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Challenge:
        data = json.loads(text)
        who = data["from"]
        return cls(
            data["id"],
            data["room"],
            Challenger(who["name"], who["player_id"], bool(who["bot"])),
            data["rules"],
            data["tc"],
            bool(data["rated"]),
            float(data["created"]),
        )


async def offer(
    service: RoomService,
    desk: BotDesk,
    bot: Player,
    challenger: Challenger,
    *,
    rules: Rules,
    settings: RoomSettings,
) -> tuple[Challenge, Executed]:
    """Challenge ``bot``: the room (``settings`` must seat bots), the challenger's seat (the
    executed ``Reserve``: its reply holds the token) and the challenge left for the bot."""
    if challenger.player_id == bot.player_id:
        raise RoomError(ErrorCode.BAD_MESSAGE, "a bot does not challenge itself")
    room = await service.create(rules, public=False, settings=settings)
    seated = await service.execute(
        room.room_id,
        Reserve(challenger.name, player_id=challenger.player_id, bot=challenger.bot),
    )
    challenge = Challenge(
        secrets.token_urlsafe(12),
        room.room_id,
        challenger,
        rules.to_dict(),
        settings.time_control.to_dict() if settings.time_control is not None else None,
        settings.rated,
        service.now(),
    )
    try:
        await desk.put(bot.player_id, CHALLENGE + challenge.challenge_id, challenge.to_json())
    except RoomError:
        await service.execute(room.room_id, Retire())
        raise
    return challenge, seated


async def active_games(service: RoomService, desk: BotDesk, bot_id: str) -> dict[str, str]:
    """The bot's seat entries of games not over (room id: entry); those of finished or gone
    rooms are dropped from the desk on the way."""
    live: dict[str, str] = {}
    for key, value in (await desk.entries(bot_id)).items():
        if not key.startswith(SEAT):
            continue
        room_id = key.removeprefix(SEAT)
        try:
            room = await service.load(room_id)
        except RoomError as exc:
            if exc.code is not ErrorCode.ROOM_NOT_FOUND:
                raise
            room = None
        if room is None or room.status is Status.FINISHED:
            await desk.take(bot_id, key)
        else:
            live[room_id] = value
    return live


async def check_available(
    service: RoomService, desk: BotDesk, bot: Player, limits: BotLimits
) -> None:
    """``bot_offline`` unless the bot's socket is open; ``bot_limit`` (``field``: which)
    when it plays its most games at once or played its most today: what its ``accept``
    would refuse, said to the challenger at once."""
    if not await desk.is_online(bot.player_id, service.now()):
        raise RoomError(ErrorCode.BOT_OFFLINE, f"bot {bot.name!r:.40} is not online")
    if len(await active_games(service, desk, bot.player_id)) >= limits.max_games:
        raise limit_reached("max_games", f"bot {bot.name!r:.40} plays its most games at once")
    if await desk.count_day(bot.player_id, today(service.now()), 0) >= limits.games_per_day:
        raise limit_reached("games_per_day", f"bot {bot.name!r:.40} played its games of the day")


async def pick_bot(
    service: RoomService,
    desk: BotDesk,
    directory: PlayerDirectory,
    limits: BotLimits,
    *,
    besides: str | None = None,
) -> Player:
    """An online bot that can take a game now, chosen at random among them ("play a bot":
    quick play and the lobby); ``besides`` is never chosen (the asker's own id).
    ``bot_offline`` when none can."""
    online = await desk.online(service.now(), 100)
    random.shuffle(online)
    for bot_id in online:
        bot = await directory.get(bot_id) if bot_id != besides else None
        if bot is None or not bot.bot:
            continue
        try:
            await check_available(service, desk, bot, limits)
        except RoomError as exc:
            if exc.code not in (ErrorCode.BOT_OFFLINE, ErrorCode.BOT_LIMIT):
                raise
            continue
        return bot
    raise RoomError(ErrorCode.BOT_OFFLINE, "no bot is online to play now; try again later")


async def accept(
    service: RoomService, desk: BotDesk, bot: Player, challenge_id: str, limits: BotLimits
) -> dict[str, Any]:
    """Seat ``bot`` in the room of its challenge ``challenge_id``: the ``seat`` message (also
    left on the desk). ``bot_limit`` (and the challenge withdrawn) past a limit; ``not_found``
    when the challenge was answered, withdrawn or never made."""
    challenge = await _take(desk, bot.player_id, challenge_id)
    day = today(service.now())
    try:
        if len(await active_games(service, desk, bot.player_id)) >= limits.max_games:
            raise limit_reached(
                "max_games", f"the bot plays {limits.max_games} games at once already"
            )
        if await desk.count_day(bot.player_id, day, 0) >= limits.games_per_day:
            raise limit_reached(
                "games_per_day", f"the bot played its {limits.games_per_day} games of the day"
            )
        executed = await service.execute(
            challenge.room_id, Reserve(bot.name, player_id=bot.player_id, bot=True)
        )
    except RoomError:
        await _withdraw(service, challenge)
        raise
    await desk.count_day(bot.player_id, day, 1)
    assert isinstance(executed.reply, JoinReply)
    seat = seat_message(
        challenge.room_id,
        executed.reply.mark,
        challenge.challenger,
        rules=challenge.rules,
        time_control=challenge.time_control,
        rated=challenge.rated,
        challenge_id=challenge.challenge_id,
    )
    await tell_seat(desk, bot.player_id, seat)
    return seat


def seat_message(
    room_id: str,
    mark: str | None,
    opponent: Challenger,
    *,
    rules: dict[str, Any],
    time_control: dict[str, float] | None,
    rated: bool,
    challenge_id: str | None = None,
    tournament: str | None = None,
) -> dict[str, Any]:
    """The ``seat`` message of the bot socket: a game the bot is seated in (a challenge's,
    or a tournament's: ``challenge_id`` None and ``tournament`` its id)."""
    return {
        "type": "seat",
        "room_id": room_id,
        "mark": mark,
        "challenge_id": challenge_id,
        "tournament": tournament,
        "opponent": opponent.public(),
        "rules": rules,
        "time_control": time_control,
        "rated": rated,
    }


async def tell_seat(desk: BotDesk, bot_id: str, seat: dict[str, Any]) -> None:
    """Leave ``seat`` on the bot's desk: its socket sends it (once), and it counts among the
    bot's games at once until that game is over."""
    await desk.put(bot_id, SEAT + seat["room_id"], json.dumps(seat))


async def decline(service: RoomService, desk: BotDesk, bot_id: str, challenge_id: str) -> None:
    """Withdraw the challenge: its room is aborted (the challenger sees it end)."""
    await _withdraw(service, await _take(desk, bot_id, challenge_id))


async def expire(service: RoomService, desk: BotDesk, bot_id: str, key: str) -> None:
    """Withdraw the challenge entry ``key`` (one that waited past ``CHALLENGE_TTL``)."""
    raw = await desk.take(bot_id, key)
    if raw is not None:
        await _withdraw(service, Challenge.from_json(raw))


async def _take(desk: BotDesk, bot_id: str, challenge_id: str) -> Challenge:
    raw = await desk.take(bot_id, CHALLENGE + challenge_id)
    if raw is None:
        raise RoomError(
            ErrorCode.NOT_FOUND,
            f"no challenge {challenge_id!r:.40} waits for this bot (answered, or withdrawn)",
        )
    return Challenge.from_json(raw)


async def _withdraw(service: RoomService, challenge: Challenge) -> None:
    try:
        await service.execute(challenge.room_id, Retire())
    except RoomError as exc:
        if exc.code is not ErrorCode.ROOM_NOT_FOUND:
            raise
