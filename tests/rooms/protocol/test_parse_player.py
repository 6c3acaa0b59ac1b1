"""The ``player`` of a join, ``{"id": ..., "secret": ...}``: kept for a seat-taking join,
ignored by spectators and resumes, never printed, and a typed ``bad_message`` when it is not
two strings of the right lengths. Whether it is a real identity is not the parser's to say."""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest

from rooms import ErrorCode, RoomError
from rooms.players import Credentials
from rooms.protocol import JoinMessage, parse_message

SECRET = secrets.token_urlsafe(32)
PLAYER = {"id": "AdaAdaAdaAda0001", "secret": SECRET}


def parse(**fields: Any) -> JoinMessage:
    message = parse_message(json.dumps({"type": "join", **fields}), max_bytes=4096)
    assert isinstance(message, JoinMessage)
    return message


def test_a_seat_taking_join_carries_the_identity_and_never_prints_its_secret() -> None:
    message = parse(**{"as": "player", "name": "Ada", "player": PLAYER})
    assert message.player == Credentials("AdaAdaAdaAda0001", SECRET)
    assert SECRET not in repr(message) and SECRET not in repr(message.player)
    key = secrets.token_urlsafe(16)
    keyed = parse(**{"as": "player", "join_key": key, "player": PLAYER})
    assert keyed.player is not None and keyed.join_key == key
    assert parse(**{"as": "player"}).player is None
    assert parse(**{"as": "player", "player": None}).player is None


def test_spectators_and_resumes_ignore_it() -> None:
    assert parse(**{"as": "spectator", "player": PLAYER}).player is None
    resume = parse(**{"as": "player", "token": "t" * 43, "player": PLAYER})
    assert resume.player is None and resume.token == "t" * 43


@pytest.mark.parametrize(
    ("player", "says"),
    [
        ("AdaAdaAdaAda0001", "player must be an object"),
        ([PLAYER], "player must be an object"),
        ({"secret": SECRET}, "player.id must be a string"),
        ({"id": 42, "secret": SECRET}, "player.id must be a string"),
        ({"id": "x" * 65, "secret": SECRET}, "player.id must be a string"),
        ({"id": "AdaAdaAdaAda0001"}, "player.secret must be a string"),
        ({"id": "AdaAdaAdaAda0001", "secret": ""}, "player.secret must be a string"),
        ({"id": "AdaAdaAdaAda0001", "secret": "s" * 129}, "player.secret must be a string"),
    ],
)
def test_a_malformed_identity_is_a_typed_bad_message(player: object, says: str) -> None:
    for role in ("player", "spectator"):  # malformed is malformed, whoever sends it
        with pytest.raises(RoomError) as caught:
            parse(**{"as": role, "player": player, "id": "j1"})
        assert caught.value.code is ErrorCode.BAD_MESSAGE and says in caught.value.message
        assert caught.value.ref == "j1"
        assert SECRET not in caught.value.message
