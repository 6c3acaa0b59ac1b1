"""The rooms layer's error root and the stable error codes of the wire protocol.

Every refused command raises ``RoomError(code, message)``; the code is one of
``ErrorCode`` (the list docs/protocol.md documents), the message is for humans, lowercase,
quoting the bad input. Engine errors are translated with their own stable codes.
"""

from __future__ import annotations

from enum import StrEnum

from core import GameError, RulesError

__all__ = ["ErrorCode", "RoomError", "UnsupportedBackend", "from_game_error"]


class ErrorCode(StrEnum):
    """Every error code a client can receive (WebSocket ``error`` or HTTP body)."""

    BAD_MESSAGE = "bad_message"
    UNKNOWN_TYPE = "unknown_type"
    UNSUPPORTED_PROTOCOL = "unsupported_protocol"
    TOO_LARGE = "too_large"
    RATE_LIMITED = "rate_limited"
    NOT_JOINED = "not_joined"
    ALREADY_JOINED = "already_joined"
    ROOM_NOT_FOUND = "room_not_found"
    ROOM_FULL = "room_full"
    BAD_TOKEN = "bad_token"
    BAD_IDENTITY = "bad_identity"
    NOT_A_PLAYER = "not_a_player"
    NOT_A_SPECTATOR = "not_a_spectator"
    GUESSES_CLOSED = "guesses_closed"
    NOT_STARTED = "not_started"
    NOT_YOUR_TURN = "not_your_turn"
    OUT_OF_BOUNDS = "out_of_bounds"
    OCCUPIED = "occupied"
    COLUMN_FULL = "column_full"
    MALFORMED_MOVE = "malformed_move"
    GAME_OVER = "game_over"
    STALE_VERSION = "stale_version"
    OUT_OF_TIME = "out_of_time"
    NOT_FINISHED = "not_finished"
    CANNOT_ABORT = "cannot_abort"
    OFFER_PENDING = "offer_pending"
    NO_OFFER = "no_offer"
    TOO_SOON = "too_soon"
    NOTHING_TO_TAKE_BACK = "nothing_to_take_back"
    BOT_OPPONENT = "bot_opponent"
    RATED_GAME = "rated_game"
    IDENTITY_REQUIRED = "identity_required"
    IDENTITY_SEATED = "identity_seated"
    NOT_CLAIMABLE = "not_claimable"
    BOTS_NOT_ALLOWED = "bots_not_allowed"
    BOTS_ONLY = "bots_only"
    BOT_TOKEN_REQUIRED = "bot_token_required"
    BOT_LIMIT = "bot_limit"
    BOT_OFFLINE = "bot_offline"
    CHAT_TOO_LONG = "chat_too_long"
    BUSY = "busy"
    INVALID_RULES = "invalid_rules"
    INVALID_OPTIONS = "invalid_options"
    INVALID_NAME = "invalid_name"
    INVALID_SUBSCRIPTION = "invalid_subscription"
    NOT_RATED = "not_rated"
    PLAYER_NOT_FOUND = "player_not_found"
    NOT_FOUND = "not_found"
    TOURNAMENT_CLOSED = "tournament_closed"
    TOURNAMENT_FULL = "tournament_full"
    NOT_CREATOR = "not_creator"
    ORIGIN_NOT_ALLOWED = "origin_not_allowed"
    UNSUPPORTED_MEDIA_TYPE = "unsupported_media_type"
    UNAVAILABLE = "unavailable"
    INTERNAL_ERROR = "internal_error"


class RoomError(Exception):
    """A refused command: nothing changed. ``code`` is stable, ``message`` is for humans.

    ``field`` names the offending field when one is to blame (the rule of invalid rules);
    ``ref`` is the client's ``move_id`` or message ``id`` the error answers, when known;
    ``retry_after`` the seconds after which the same command may succeed, when waiting helps.
    """

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        field: str | None = None,
        ref: str | None = None,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.field = field
        self.ref = ref
        self.retry_after = retry_after

    def __repr__(self) -> str:
        return f"RoomError({self.code.value!r}, {self.message!r})"


_ENGINE_CODES = {code.value: code for code in ErrorCode}


def from_game_error(exc: GameError) -> RoomError:
    """The engine's typed error as a RoomError with the same stable code."""
    if isinstance(exc, RulesError):
        return RoomError(ErrorCode.INVALID_RULES, str(exc), field=exc.field)
    code = _ENGINE_CODES.get(exc.code, ErrorCode.MALFORMED_MOVE)
    return RoomError(code, exc.message)


class UnsupportedBackend(RoomError):
    """The URL names a backend this build cannot use (unknown, or not implemented yet)."""

    def __init__(self, message: str) -> None:
        super().__init__(ErrorCode.UNAVAILABLE, message)
