"""The ``join_key`` of a player's join: a 22-128 character URL-safe string, alone (no token),
never a spectator's; anything else is a typed ``bad_message``."""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest

from rooms import ErrorCode, RoomError
from rooms.protocol import JoinMessage, parse_message, valid_join_key


def parse(**fields: Any) -> JoinMessage:
    message = parse_message(json.dumps({"type": "join", **fields}), max_bytes=4096)
    assert isinstance(message, JoinMessage)
    return message


def refusal(**fields: Any) -> RoomError:
    with pytest.raises(RoomError) as caught:
        parse(**fields)
    return caught.value


@pytest.mark.parametrize("key", ["Jc4mPq0w-Zt_7yLx2Qk9aB", "a" * 22, "Z-_9" * 32])
def test_a_player_join_carries_its_key(key: str) -> None:
    message = parse(**{"as": "player", "join_key": key, "id": "j1"})
    assert message.join_key == key and message.token is None
    assert key not in repr(message)


def test_a_join_without_a_key_has_none() -> None:
    assert parse(**{"as": "player"}).join_key is None
    assert parse(**{"as": "player", "join_key": None}).join_key is None


@pytest.mark.parametrize(
    "key", ["a" * 21, "a" * 129, "", "has space" * 3, "é" * 30, "a+b/c=" * 5, 12345, True, ["k"]]
)
def test_a_malformed_key_is_a_bad_message(key: object) -> None:
    error = refusal(**{"as": "player", "join_key": key, "id": "j2"})
    assert error.code is ErrorCode.BAD_MESSAGE and error.ref == "j2"
    assert "join_key" in error.message
    assert not valid_join_key(key)


def test_a_spectator_sends_no_key() -> None:
    error = refusal(**{"as": "spectator", "join_key": secrets.token_urlsafe(16)})
    assert error.code is ErrorCode.BAD_MESSAGE and "spectators" in error.message


def test_a_key_and_a_token_together_are_refused() -> None:
    error = refusal(**{"as": "player", "token": "t" * 43, "join_key": secrets.token_urlsafe(16)})
    assert error.code is ErrorCode.BAD_MESSAGE and "not both" in error.message
