"""Who a commit notifies (rooms.push.notices), on the sans-I/O room: the player whose turn a
commit began, or every player of a game it ended, only when they have an identity and no
connection to the room; commits that change nothing for them notify nobody."""

from __future__ import annotations

from core import MoveRequest, Rules
from rooms import Role, Room
from rooms.push import NoticeKind, notices_of
from rooms.room import Join, Leave, PlayMove, Resign


def playing(*, identities: bool = True) -> Room:
    """A 3x3 room with X (connection cx, identity px) and O (co, po) seated, game started."""
    room = Room("room0001", Rules(), public=False, created=100.0)
    for conn, name in (("cx", "Ada"), ("co", "Grace")):
        player = f"p{conn[1]}" if identities else None
        room.handle(Join(conn, Role.PLAYER, name, player_id=player), now=101.0)
    return room


def play(room: Room, conn: str, row: int, col: int, now: float) -> None:
    request = MoveRequest(row=row, col=col)
    room.handle(PlayMove(conn, request, room.version, f"{conn}-{room.version}"), now=now)


def test_a_move_notifies_the_player_to_move_when_they_are_away() -> None:
    room = playing()
    play(room, "cx", 0, 0, 102.0)
    assert notices_of(room) == []  # O is connected: the socket tells them
    play(room, "co", 1, 1, 103.0)
    assert notices_of(room) == []  # so is X
    room.handle(Leave("co"), now=104.0)
    assert notices_of(room) == []  # O leaving gives nobody a turn
    play(room, "cx", 0, 1, 105.0)
    (notice,) = notices_of(room)
    assert notice.player_id == "po" and notice.kind is NoticeKind.TURN
    assert notice.room_id == "room0001" and notice.version == room.version
    payload = notice.payload()
    assert payload == {
        "kind": "turn",
        "room_id": "room0001",
        "version": room.version,
        "title": "Your move",
        "body": "Against Ada, move 4.",
        "url": "/r/room0001",
        "tag": "room:room0001",
    }


def test_the_start_of_a_game_notifies_the_first_player_who_left_meanwhile() -> None:
    room = Room("room0001", Rules(), public=False, created=100.0)
    room.handle(Join("cx", Role.PLAYER, "Ada", player_id="px"), now=101.0)
    room.handle(Leave("cx"), now=102.0)  # made the room, shared the link, went away
    room.handle(Join("co", Role.PLAYER, "Grace", player_id="po"), now=103.0)
    (notice,) = notices_of(room)
    assert (notice.player_id, notice.kind) == ("px", NoticeKind.TURN)
    assert notice.body == "Against Grace, move 1."


def test_the_end_notifies_every_absent_player_with_their_own_result() -> None:
    room = playing()
    play(room, "cx", 0, 0, 102.0)
    room.handle(Leave("co"), now=103.0)
    room.handle(Resign("cx"), now=104.0)
    (notice,) = notices_of(room)  # X resigned with the socket open: only O is told
    assert (notice.player_id, notice.kind, notice.title) == ("po", NoticeKind.ENDED, "You won")
    assert notice.body == "Against Ada: a player resigned."

    both_away = playing()
    play(both_away, "cx", 0, 0, 102.0)
    both_away.handle(Leave("cx"), now=103.0)
    both_away.handle(Resign("co"), now=104.0)
    assert [(n.player_id, n.title) for n in notices_of(both_away)] == [("px", "You won")]


def test_a_loss_and_a_draw_are_told_as_such() -> None:
    room = playing()
    for conn, (row, col) in zip(
        ["cx", "co", "cx", "co"], [(0, 0), (1, 0), (0, 1), (1, 1)], strict=True
    ):
        play(room, conn, row, col, 102.0 + row + col)
    room.handle(Leave("co"), now=110.0)
    play(room, "cx", 0, 2, 111.0)  # X completes the top row
    (notice,) = notices_of(room)
    assert (notice.player_id, notice.title) == ("po", "You lost")

    drawn = playing()
    # X O X / X O O / O X X: a full board, no line
    cells = [(0, 0), (0, 1), (0, 2), (1, 1), (1, 0), (1, 2), (2, 1), (2, 0), (2, 2)]
    for index, (row, col) in enumerate(cells):
        if index == 8:
            drawn.handle(Leave("co"), now=119.0)
        play(drawn, "cx" if index % 2 == 0 else "co", row, col, 110.0 + index)
    (notice,) = notices_of(drawn)
    assert (notice.player_id, notice.title) == ("po", "A draw")


def test_nobody_without_an_identity_is_notified() -> None:
    room = playing(identities=False)
    play(room, "cx", 0, 0, 102.0)
    room.handle(Leave("co"), now=103.0)
    room.handle(Resign("cx"), now=105.0)
    assert notices_of(room) == []


def test_a_commit_after_the_turn_began_tells_it_no_more() -> None:
    room = playing()
    play(room, "cx", 0, 0, 102.0)
    room.handle(Leave("co"), now=103.0)
    room.handle(Leave("cx"), now=104.0)  # a later commit: O's turn began before it
    assert notices_of(room) == []
