"""The room actions' table (rooms.protocol.actions): every message a joined connection sends
besides the session's own is an entry, and becomes its room command."""

from __future__ import annotations

import pytest

from rooms.protocol import ACTIONS, ActionMessage, ClientType, command_for, parse_message
from rooms.room import Abort, Answer, Claim, Command, Leave, Offer, OfferKind, Rematch, Resign

SESSION = {
    ClientType.JOIN,
    ClientType.MOVE,
    ClientType.SYNC,
    ClientType.PING,
    ClientType.CHAT,
    ClientType.GUESS,
}
"""What the session answers itself; every other type is a room action."""

CONN = "aaaaaaaaaaaa.0000000000000001"
EXPECTED: dict[str, Command] = {
    '{"type":"resign"}': Resign(CONN),
    '{"type":"abort"}': Abort(CONN),
    '{"type":"offer_draw"}': Offer(CONN, OfferKind.DRAW),
    '{"type":"accept_draw"}': Answer(CONN, OfferKind.DRAW, True),
    '{"type":"decline_draw"}': Answer(CONN, OfferKind.DRAW, False),
    '{"type":"takeback"}': Offer(CONN, OfferKind.TAKEBACK),
    '{"type":"accept_takeback"}': Answer(CONN, OfferKind.TAKEBACK, True),
    '{"type":"decline_takeback"}': Answer(CONN, OfferKind.TAKEBACK, False),
    '{"type":"rematch"}': Rematch(CONN),
    '{"type":"claim","result":"win"}': Claim(CONN, draw=False, mark=None),
    '{"type":"claim","result":"draw"}': Claim(CONN, draw=True, mark=None),
    '{"type":"claim","result":"win","mark":"A"}': Claim(CONN, draw=False, mark="A"),
    '{"type":"leave"}': Leave(CONN, deliberate=True),
}


def test_every_client_type_is_the_session_s_or_an_action() -> None:
    assert set(ACTIONS) == set(ClientType) - SESSION


@pytest.mark.parametrize(("text", "command"), EXPECTED.items())
def test_each_action_becomes_its_command(text: str, command: Command) -> None:
    message = parse_message(text, max_bytes=4096)
    assert isinstance(message, ActionMessage)
    assert command_for(message, CONN) == command


def test_every_action_is_exercised_here() -> None:
    kinds = [parse_message(text, max_bytes=4096) for text in EXPECTED]
    assert {m.kind for m in kinds if isinstance(m, ActionMessage)} == set(ACTIONS)
