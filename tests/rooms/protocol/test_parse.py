"""Client messages: every field checked, every refusal typed, refs echoed."""

from __future__ import annotations

import json
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core import MoveRequest
from rooms import ErrorCode, Role, RoomError
from rooms.protocol import (
    ActionMessage,
    ChatMessage,
    ClientType,
    JoinMessage,
    MoveMessage,
    PingMessage,
    SyncMessage,
    parse_message,
)
from rooms.protocol.actions import ACTIONS


def parse(data: object, max_bytes: int = 4096):  # type: ignore[no-untyped-def]
    return parse_message(data if isinstance(data, str) else json.dumps(data), max_bytes=max_bytes)


def refused(data: object, max_bytes: int = 4096) -> RoomError:
    with pytest.raises(RoomError) as info:
        parse(data, max_bytes)
    return info.value


def test_join_with_every_field() -> None:
    message = parse(
        {
            "type": "join",
            "as": "player",
            "name": "  Ada ",
            "token": "t" * 43,
            "last_version": 7,
            "protocol": 1,
            "id": "j1",
        }
    )
    assert message == JoinMessage(Role.PLAYER, "Ada", "t" * 43, 7, "j1")
    assert "t" * 43 not in repr(message)
    assert parse({"type": "join", "as": "spectator"}) == JoinMessage(Role.SPECTATOR)


def test_move_sync_ping() -> None:
    assert parse({"type": "move", "row": 1, "col": 2, "version": 3, "move_id": "m"}) == (
        MoveMessage(MoveRequest(col=2, row=1), 3, "m")
    )
    assert parse({"type": "move", "col": 2, "version": 0, "move_id": "g"}).request == (
        MoveRequest(col=2)
    )
    assert parse({"type": "sync", "id": "s"}) == SyncMessage("s")
    assert parse({"type": "ping"}) == PingMessage(None)


@pytest.mark.parametrize("kind", sorted(set(ACTIONS) - {ClientType.CLAIM}))
def test_lifecycle_actions_carry_their_id(kind: str) -> None:
    assert parse({"type": kind, "id": "a1"}) == ActionMessage(ClientType(kind), "a1")


def test_claims_and_chat() -> None:
    claim = ClientType.CLAIM
    assert parse({"type": "claim", "result": "draw"}) == (
        ActionMessage(claim, None, {"draw": True, "mark": None})
    )
    assert parse({"type": "claim", "result": "win", "mark": "O", "id": "c"}) == (
        ActionMessage(claim, "c", {"draw": False, "mark": "O"})
    )
    assert parse({"type": "chat", "text": "  gg \U0001f468\u200d\U0001f469  ", "id": "h"}) == (
        ChatMessage("gg \U0001f468\u200d\U0001f469", "h")
    )
    assert parse({"type": "chat", "text": "x" * 200}) == ChatMessage("x" * 200)


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ("not json", ErrorCode.BAD_MESSAGE),
        ("[1, 2]", ErrorCode.BAD_MESSAGE),
        ("[" * 2000 + "]" * 2000, ErrorCode.BAD_MESSAGE),
        ({"type": 5}, ErrorCode.BAD_MESSAGE),
        ({"no": "type"}, ErrorCode.BAD_MESSAGE),
        ({"type": "dance"}, ErrorCode.UNKNOWN_TYPE),
        ({"type": "claim"}, ErrorCode.BAD_MESSAGE),
        ({"type": "claim", "result": "lose"}, ErrorCode.BAD_MESSAGE),
        ({"type": "claim", "result": []}, ErrorCode.BAD_MESSAGE),
        ({"type": "join", "as": ["player"]}, ErrorCode.BAD_MESSAGE),
        ({"type": "claim", "result": "win", "mark": "Z"}, ErrorCode.BAD_MESSAGE),
        ({"type": "chat"}, ErrorCode.BAD_MESSAGE),
        ({"type": "chat", "text": "   "}, ErrorCode.BAD_MESSAGE),
        ({"type": "chat", "text": "a\u0007b"}, ErrorCode.BAD_MESSAGE),
        ({"type": "chat", "text": "a\u202eb"}, ErrorCode.BAD_MESSAGE),
        ({"type": "chat", "text": "x" * 201}, ErrorCode.CHAT_TOO_LONG),
        ({"type": "chat", "text": 5}, ErrorCode.BAD_MESSAGE),
        ({"type": "join", "as": "referee"}, ErrorCode.BAD_MESSAGE),
        ({"type": "join", "as": "player", "name": "x" * 33}, ErrorCode.BAD_MESSAGE),
        ({"type": "join", "as": "player", "name": "   "}, ErrorCode.BAD_MESSAGE),
        ({"type": "join", "as": "player", "name": "a\u0000b"}, ErrorCode.BAD_MESSAGE),
        ({"type": "join", "as": "player", "name": "a\u202eb"}, ErrorCode.BAD_MESSAGE),
        ({"type": "join", "as": "player", "name": 7}, ErrorCode.BAD_MESSAGE),
        ({"type": "join", "as": "player", "token": 12}, ErrorCode.BAD_MESSAGE),
        ({"type": "join", "as": "player", "token": "t" * 129}, ErrorCode.BAD_MESSAGE),
        ({"type": "join", "as": "player", "last_version": -1}, ErrorCode.BAD_MESSAGE),
        ({"type": "join", "as": "player", "last_version": True}, ErrorCode.BAD_MESSAGE),
        ({"type": "join", "as": "player", "protocol": 2}, ErrorCode.UNSUPPORTED_PROTOCOL),
        ({"type": "join", "as": "player", "id": ""}, ErrorCode.BAD_MESSAGE),
        ({"type": "move", "row": 0, "col": 0, "version": 1}, ErrorCode.BAD_MESSAGE),
        ({"type": "move", "row": 0, "col": 0, "move_id": "m"}, ErrorCode.BAD_MESSAGE),
        (
            {"type": "move", "row": 0, "col": 0, "version": "1", "move_id": "m"},
            ErrorCode.BAD_MESSAGE,
        ),
        (
            {"type": "move", "row": 0, "col": 0, "version": 1, "move_id": "m" * 65},
            ErrorCode.BAD_MESSAGE,
        ),
        ({"type": "move", "row": 0, "version": 1, "move_id": "m"}, ErrorCode.MALFORMED_MOVE),
        (
            {"type": "move", "row": 0.5, "col": 0, "version": 1, "move_id": "m"},
            ErrorCode.MALFORMED_MOVE,
        ),
        (
            {"type": "move", "row": True, "col": 0, "version": 1, "move_id": "m"},
            ErrorCode.MALFORMED_MOVE,
        ),
    ],
)
def test_refusals(data: object, code: ErrorCode) -> None:
    assert refused(data).code is code


def test_too_large_counts_bytes_not_characters() -> None:
    assert refused({"type": "ping", "id": "x" * 50}, max_bytes=40).code is ErrorCode.TOO_LARGE
    wide = json.dumps({"type": "join", "as": "player", "name": "é" * 30}, ensure_ascii=False)
    assert len(wide) < 200
    assert refused(wide, max_bytes=len(wide.encode()) - 1).code is ErrorCode.TOO_LARGE
    assert parse(wide, max_bytes=len(wide.encode())).name == "é" * 30


def test_errors_carry_the_ref_when_the_frame_named_one() -> None:
    assert refused({"type": "move", "col": 9, "row": "x", "version": 1, "move_id": "m7"}).ref == (
        "m7"
    )
    assert refused({"type": "dance", "id": "d1"}).ref == "d1"
    assert refused({"type": "join", "as": "nobody", "id": "j1"}).ref == "j1"
    assert refused("garbage").ref is None


@pytest.mark.parametrize(
    "data",
    [
        '{"type": "join", "as": "player", "name": "a\\ud800b"}',
        '{"type": "join", "as": "player", "token": "\\udfff"}',
        '{"type": "move", "row": 0, "col": 0, "version": 1, "move_id": "\\ud800"}',
        '{"type": "ping", "id": "\\ud800"}',
    ],
)
def test_lone_surrogates_are_refused_and_never_echoed(data: str) -> None:
    error = refused(data)
    assert error.code is ErrorCode.BAD_MESSAGE
    assert error.ref is None
    error.message.encode("utf-8")  # the answer itself is sendable


@settings(max_examples=300, deadline=None)
@given(
    st.one_of(
        st.text(max_size=300),
        st.recursive(
            st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
            lambda inner: (
                st.lists(inner, max_size=4)
                | st.dictionaries(
                    st.sampled_from(
                        [
                            "type",
                            "as",
                            "name",
                            "token",
                            "row",
                            "col",
                            "layer",
                            "version",
                            "move_id",
                            "id",
                            "last_version",
                            "protocol",
                        ]
                    )
                    | st.text(max_size=5),
                    inner,
                    max_size=6,
                )
            ),
            max_leaves=12,
        ).map(json.dumps),
        st.fixed_dictionaries(
            {"type": st.sampled_from(["join", "move", "sync", "ping"])},
            optional={
                k: st.none() | st.booleans() | st.integers() | st.text(max_size=40)
                for k in [
                    "as",
                    "name",
                    "token",
                    "row",
                    "col",
                    "layer",
                    "version",
                    "move_id",
                    "id",
                    "last_version",
                    "protocol",
                ]
            },
        ).map(json.dumps),
    )
)
def test_any_text_parses_or_is_refused_with_a_sendable_error(text: str) -> None:
    try:
        parse_message(text, max_bytes=4096)
    except RoomError as exc:
        assert exc.code in set(ErrorCode)
        exc.message.encode("utf-8")
        if exc.ref is not None:
            exc.ref.encode("utf-8")


def _outcome(text: str) -> object:
    try:
        return parse_message(text, max_bytes=4096)
    except RoomError as exc:
        return (exc.code, exc.message, exc.ref)


@pytest.mark.parametrize(
    "text",
    [
        '{"type": "move", "row": 1, "col": 2, "version": 3, "move_id": "m"}',
        '{"type": "join", "as": "player", "name": "Ada", "last_version": 4, "id": "j"}',
        '{"type": "move", "row": 0, "col": 0, "version": 123456789012345678901234567890,'
        ' "move_id": "m"}',
        '{"type": "move", "row": 18446744073709551616, "col": 0, "version": 1, "move_id": "m"}',
        '{"type": "move", "row": 1e400, "col": 0, "version": 1, "move_id": "m"}',
        '{"type": "move", "row": NaN, "col": 0, "version": 1, "move_id": "m"}',
        '{"type": "join", "as": "player", "name": [123456789012345678901234567890]}',
        '{"type": "join", "as": "player", "last_version": 2.0}',
        '{"type": "ping", "id": {"nested": 99999999999999999999999}}',
        '{"type": "chat", "text": "a\\ud800"}',
    ],
)
def test_every_text_parses_as_with_the_standard_library_alone(
    text: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """orjson reads the common message; what it reads differently (integers past 64 bits
    become floats) is read by the json module, so answers and error messages stay the same."""
    fast = _outcome(text)
    monkeypatch.setattr("rooms.protocol.parse.loads", json.loads)
    assert fast == _outcome(text)


@settings(max_examples=300, deadline=None)
@given(
    st.dictionaries(
        st.sampled_from(
            [
                "type",
                "as",
                "name",
                "token",
                "row",
                "col",
                "version",
                "move_id",
                "id",
                "last_version",
                "text",
                "result",
                "mark",
            ]
        ),
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats()
        | st.text(max_size=20)
        | st.sampled_from(["move", "join", "ping", "chat", "claim", "player", "X"])
        | st.lists(st.integers(), max_size=2),
        max_size=7,
    ).map(json.dumps)
)
def test_any_message_parses_as_with_the_standard_library_alone(text: str) -> None:
    fast = _outcome(text)
    with mock.patch("rooms.protocol.parse.loads", json.loads):
        assert fast == _outcome(text)
