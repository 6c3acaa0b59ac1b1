"""The JSON bodies of ``POST /api/rooms`` and ``POST /api/quickplay``, checked field by field.

The fields are rules, visibility, a bot opponent, a time control, whether the room is rated, a
name and, for quick play, a join key and a guest identity (protocol.md).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from core import GameError, Rules
from core.ai import LEVELS
from rooms import ErrorCode, RoomError, TimeControl, from_game_error
from rooms.common.names import clean_name
from rooms.players import Credentials, credentials_of
from rooms.protocol import JOIN_KEY_RULE, valid_join_key
from rooms.ratings import pool_of

from ..settings import Settings

__all__ = [
    "ChallengeBody",
    "QuickPlayBody",
    "RoomBody",
    "json_object",
    "parse_challenge",
    "parse_quickplay",
    "parse_room",
    "player_credentials",
]

_ROOM_FIELDS = ("rules", "public", "bot", "bot_mark", "time_control", "rated", "bots")
_QUICK_FIELDS = ("rules", "time_control", "name", "join_key", "player", "opponent")


@dataclass(frozen=True, slots=True)
class RoomBody:
    rules: Rules
    public: bool
    bot: tuple[str, str] | None
    time_control: TimeControl | None
    pool: str | None = None
    """The rating pool of a rated room (None: not rated)."""
    bots: bool = False
    """Whether bot accounts may take its seats (rooms.bots)."""


@dataclass(frozen=True, slots=True)
class QuickPlayBody:
    rules: Rules
    time_control: TimeControl | None
    name: str | None
    join_key: str | None = None
    player: Credentials | None = None
    opponent: str | None = None
    """``"bot"``: play one of the online bots (rooms.bots), not a person."""

    def __repr__(self) -> str:  # never print a join key (Credentials hide the secret)
        key = "<key>" if self.join_key is not None else None
        return (
            f"QuickPlayBody(rules={self.rules!r}, time_control={self.time_control!r}, "
            f"name={self.name!r}, join_key={key}, player={self.player!r})"
        )


def json_object(raw: bytes, known: tuple[str, ...]) -> dict[str, Any]:
    """The body as a JSON object of ``known`` fields (empty: ``{}``); bad_message else."""
    try:
        data: Any = json.loads(raw) if raw.strip() else {}
    except (ValueError, RecursionError):
        raise RoomError(ErrorCode.BAD_MESSAGE, "the body must be a JSON object") from None
    if not isinstance(data, dict):
        raise RoomError(ErrorCode.BAD_MESSAGE, f"the body must be a JSON object, not {raw!r:.60}")
    unknown = sorted(set(data) - set(known))
    if unknown:
        raise RoomError(
            ErrorCode.BAD_MESSAGE,
            f"unknown field {unknown[0]!r:.40} (known: {', '.join(sorted(known))})",
        )
    return data


def _rules(data: dict[str, Any]) -> Rules:
    try:
        return Rules.from_dict(data.get("rules", {}))
    except GameError as exc:
        raise from_game_error(exc) from exc


def _time_control(data: dict[str, Any], settings: Settings) -> TimeControl | None:
    raw = data.get("time_control")
    if raw is None:
        return None
    return TimeControl.from_dict(
        raw, first_move=settings.first_move, day=settings.correspondence_day
    )


def _bot(data: dict[str, Any], rules: Rules) -> tuple[str, str] | None:
    raw, mark = data.get("bot"), data.get("bot_mark", "O")
    if raw is None:
        if "bot_mark" in data:
            raise RoomError(ErrorCode.INVALID_OPTIONS, "bot_mark: needs a bot", field="bot_mark")
        return None
    level = raw[4:] if isinstance(raw, str) and raw.startswith("bot:") else None
    if level not in LEVELS:
        known = ", ".join(f"bot:{name}" for name in LEVELS)
        raise RoomError(
            ErrorCode.INVALID_OPTIONS,
            f"bot: {raw!r:.40} is not a bot (known: {known})",
            field="bot",
        )
    assert level is not None
    if rules.players != 2:
        raise RoomError(
            ErrorCode.INVALID_OPTIONS, "bot: bots play two-player games only", field="bot"
        )
    if mark not in rules.marks:
        raise RoomError(
            ErrorCode.INVALID_OPTIONS,
            f'bot_mark: must be "X" or "O", got {mark!r:.8}',
            field="bot_mark",
        )
    return level, mark


def parse_room(raw: bytes, settings: Settings) -> RoomBody:
    data = json_object(raw, _ROOM_FIELDS)
    public = data.get("public", False)
    if not isinstance(public, bool):
        raise RoomError(ErrorCode.BAD_MESSAGE, f"public must be true or false, got {public!r:.40}")
    rules = _rules(data)
    bots = data.get("bots", False)
    if not isinstance(bots, bool):
        raise RoomError(ErrorCode.BAD_MESSAGE, f"bots must be true or false, got {bots!r:.40}")
    bot, time_control = _bot(data, rules), _time_control(data, settings)
    pool = _pool(data, rules, bot, time_control, bots=bots)
    return RoomBody(rules, public, bot, time_control, pool, bots)


def _pool(
    data: dict[str, Any],
    rules: Rules,
    bot: tuple[str, str] | None,
    tc: TimeControl | None,
    *,
    bots: bool = False,
) -> str | None:
    """The pool of a room asked for ``rated`` (rooms.ratings.pools); None when not rated."""
    rated = data.get("rated", False)
    if not isinstance(rated, bool):
        raise RoomError(ErrorCode.BAD_MESSAGE, f"rated must be true or false, got {rated!r:.40}")
    if not rated:
        return None
    if bot is not None:
        raise RoomError(
            ErrorCode.NOT_RATED, "rated: games against a bot are not rated", field="rated"
        )
    return pool_of(rules, tc, bots=bots)


def parse_quickplay(raw: bytes, settings: Settings) -> QuickPlayBody:
    data = json_object(raw, _QUICK_FIELDS)
    name = data.get("name")
    if name is not None:
        try:  # the seat's name: the join's rule (rooms.common.names)
            name = clean_name(name)
        except ValueError as exc:
            raise RoomError(ErrorCode.BAD_MESSAGE, str(exc)) from None
    join_key = data.get("join_key")
    if join_key is not None and not valid_join_key(join_key):
        raise RoomError(ErrorCode.BAD_MESSAGE, f"{JOIN_KEY_RULE}, got {join_key!r:.40}")
    rules = _rules(data)
    player = player_credentials(data.get("player"))
    opponent = data.get("opponent")
    if opponent not in (None, "bot", "person"):
        raise RoomError(
            ErrorCode.INVALID_OPTIONS,
            f'opponent: "bot" or "person", got {opponent!r:.40}',
            field="opponent",
        )
    if opponent == "bot" and join_key is not None:
        raise RoomError(ErrorCode.BAD_MESSAGE, "a join_key is for quick play with a person")
    time_control = _time_control(data, settings)
    return QuickPlayBody(
        rules, time_control, name, join_key, player, "bot" if opponent == "bot" else None
    )


@dataclass(frozen=True, slots=True)
class ChallengeBody:
    """A challenge to a bot account (server.bot_api.routes): its game, and who challenges."""

    rules: Rules
    time_control: TimeControl | None
    pool: str | None
    name: str | None
    player: Credentials | None


_CHALLENGE_FIELDS = ("rules", "time_control", "rated", "name", "player")


def parse_challenge(raw: bytes, settings: Settings) -> ChallengeBody:
    data = json_object(raw, _CHALLENGE_FIELDS)
    name = data.get("name")
    if name is not None:
        try:
            name = clean_name(name)
        except ValueError as exc:
            raise RoomError(ErrorCode.BAD_MESSAGE, str(exc)) from None
    rules, time_control = _rules(data), _time_control(data, settings)
    pool = _pool(data, rules, None, time_control, bots=True)
    return ChallengeBody(rules, time_control, pool, name, player_credentials(data.get("player")))


def player_credentials(value: object) -> Credentials | None:
    """A guest identity's id and secret (shape only: the directory says if they prove one)."""
    if value is None:
        return None
    try:
        return credentials_of(value)
    except ValueError as exc:
        raise RoomError(ErrorCode.BAD_MESSAGE, str(exc)) from None
