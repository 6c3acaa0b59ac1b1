"""``Evict`` in the sans-I/O room: a dead worker's connections leave, one event at a time,
exactly as if each had sent ``Leave``; nothing of another worker's is touched."""

from __future__ import annotations

from core import Rules
from rooms import Role, Room, new_connection_id, worker_of
from rooms.common import new_worker_id
from rooms.protocol import encode_room
from rooms.room import Evict, Join, JoinReply, Leave, LeaveReply
from rooms.room.events import Presence, Spectators
from tests.rooms.room.room_helpers import new_room
from tests.support.handled import event_of

DEAD, LIVE = "deadbeef0001", "c0ffee000002"


def conn(worker: str, name: str) -> str:
    return f"{worker}.{name}"


def full_room() -> tuple[Room, str]:
    """X held by the dead worker (two tabs), O by the live one, three spectators of the
    dead worker and one of the live worker; and X's seat token."""
    room = new_room()
    reply = room.handle(Join(conn(DEAD, "x1"), Role.PLAYER, "Ada"), now=10.0).reply
    assert isinstance(reply, JoinReply) and reply.token is not None
    token = reply.token
    room.handle(Join(conn(LIVE, "o1"), Role.PLAYER, "Grace"), now=10.0)
    room.handle(Join(conn(DEAD, "x2"), Role.PLAYER, token=token), now=10.0)
    for name in ("s1", "s2", "s3"):
        room.handle(Join(conn(DEAD, name), Role.SPECTATOR), now=10.0)
    room.handle(Join(conn(LIVE, "s4"), Role.SPECTATOR), now=10.0)
    return room, token


def test_connection_ids_name_their_worker() -> None:
    worker = new_worker_id()
    assert len(worker) == 12 and worker != new_worker_id()
    made = new_connection_id(worker)
    assert worker_of(made) == worker and made != new_connection_id(worker)
    assert worker_of(new_connection_id()) is None  # an id without a worker
    for foreign in ("c0", "x", "watcher", ".abc", "short.abc", "DEADBEEF0001.x"):
        assert worker_of(foreign) is None


def test_evict_removes_a_seat_then_the_spectators_then_nothing() -> None:
    room, _ = full_room()
    version = room.version
    seat_gone = room.handle(Evict(DEAD), now=50.0)
    assert seat_gone.reply == LeaveReply(True)
    assert seat_gone.event == Presence(
        version=version + 1,
        mark="X",
        connected=False,
        away_since=50.0,
        left=False,  # not deliberate: the abandon grace applies
        claimable_at=50.0 + room.settings.abandon_grace,
        due=None,
    )
    assert room.seats[0].connections == []

    watchers_gone = room.handle(Evict(DEAD), now=51.0)
    assert event_of(watchers_gone, Spectators).count == 1
    assert room.spectators == [conn(LIVE, "s4")]

    before = encode_room(room)
    nothing = room.handle(Evict(DEAD), now=52.0)
    assert nothing.event is None and nothing.reply == LeaveReply(False)
    assert encode_room(room) == before  # repeating it changes nothing, not even the version
    assert room.seats[1].connections == [conn(LIVE, "o1")]  # the live worker's untouched


def test_a_seat_also_held_by_a_live_worker_stays_connected() -> None:
    room, token = full_room()
    assert room.handle(Join(conn(LIVE, "x3"), Role.PLAYER, token=token), now=11.0).event
    assert event_of(room.handle(Evict(DEAD), now=50.0), Presence).connected is True
    assert room.seats[0].connections == [conn(LIVE, "x3")]
    assert room.seats[0].away_since is None


def test_evict_changes_presence_but_not_the_game_version() -> None:
    room, _ = full_room()
    game_version = room.game_version
    room.handle(Evict(DEAD), now=50.0)
    assert room.game_version == game_version  # a move made before it is not stale


def test_evict_is_the_same_departure_as_leave() -> None:
    (by_evict, _), (by_leave, _) = full_room(), full_room()
    by_evict.handle(Evict(DEAD), now=50.0)
    by_leave.handle(Leave(conn(DEAD, "x1")), now=50.0)
    by_leave.handle(Leave(conn(DEAD, "x2")), now=50.0)
    assert by_evict.snapshot(60.0)["players"] == by_leave.snapshot(60.0)["players"]


def test_evict_in_a_room_without_the_worker_and_with_a_bot() -> None:
    room = new_room(Rules())
    room.seat_bot("random", "O")
    room.handle(Join(conn(LIVE, "x"), Role.PLAYER, "Ada"), now=1.0)
    before = encode_room(room)
    assert room.handle(Evict(DEAD), now=2.0).event is None
    assert encode_room(room) == before
    assert room.handle(Evict(LIVE), now=3.0).event is not None
    assert room.seats[1].connected  # a bot is always there
