"""Property tests: whatever commands arrive, the room keeps its invariants.

- every accepted change bumps the version by exactly one and yields one event carrying it;
- a refused command changes nothing (byte for byte in the stored form);
- the stored form round-trips, and only engine-accepted moves are ever in the game.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from core import Game, MoveRequest, Rules
from rooms import Role, RoomError
from rooms.protocol import decode_room, encode_room
from rooms.room import Join, Leave, PlayMove
from tests.rooms.room.room_helpers import new_room

CONNS = ["a", "b", "c", "d", "s1", "s2"]

commands = st.one_of(
    st.builds(
        lambda conn, role: ("join", conn, role),
        st.sampled_from(CONNS),
        st.sampled_from([Role.PLAYER, Role.SPECTATOR]),
    ),
    st.builds(lambda conn: ("leave", conn), st.sampled_from(CONNS)),
    st.builds(
        lambda conn, row, col, lag, mid: ("move", conn, row, col, lag, mid),
        st.sampled_from(CONNS),
        st.integers(-1, 3),
        st.integers(-1, 3),
        st.integers(-2, 2),
        st.sampled_from(["m1", "m2", "m3", "m4", "m5", "m6"]),
    ),
    st.builds(
        lambda conn, which: ("resume", conn, which), st.sampled_from(CONNS), st.integers(0, 2)
    ),
)


@settings(max_examples=150, deadline=None)
@given(
    st.sampled_from([Rules(), Rules(rows=3, cols=4, k=3, gravity=True)]),
    st.lists(commands, max_size=40),
)
def test_every_change_is_one_version_and_refusals_change_nothing(
    rules: Rules, script: list[tuple[Any, ...]]
) -> None:
    room = new_room(rules)
    tokens: list[str] = []
    for now, step in enumerate(script):
        kind, conn = step[0], str(step[1])
        if kind == "join":
            command: object = Join(conn, step[2], None)
        elif kind == "resume":
            token = tokens[int(step[2])] if int(step[2]) < len(tokens) else "unknown-token"
            command = Join(conn, Role.PLAYER, None, token)
        elif kind == "leave":
            command = Leave(conn)
        else:
            _, _, row, col, lag, mid = step
            command = PlayMove(
                conn,
                MoveRequest(col=int(col), row=int(row)),
                room.version + int(lag),
                str(mid),
            )
        before, version = encode_room(room), room.version
        try:
            handled = room.handle(command, now=float(now))  # type: ignore[arg-type]
        except RoomError:
            assert encode_room(room) == before
            continue
        if handled.event is None:
            assert encode_room(room) == before and room.version == version
        else:
            assert room.version == version + 1 == handled.event.version
        seat_token = getattr(handled.reply, "token", None)
        if seat_token is not None:
            tokens.append(seat_token)
        copy = decode_room(encode_room(room))
        assert encode_room(copy) == encode_room(room)
    # the game holds only what the engine accepts, replayed from scratch
    replay = Game(rules)
    for cell in room.game.history:
        replay.play(cell)
    assert replay.board.text == room.game.board.text
