"""The hub hands every event's ``due`` to ``on_due``, reading a ``null`` one without parsing
the event (rooms.fanout.hub.due_of): the same answer as parsing it, whatever the event's text."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from core import MoveRequest, Rules
from rooms import Role, RoomService
from rooms.backends import MemoryBus, MemoryStore
from rooms.backends.store import framed
from rooms.cache import RoomCache
from rooms.common.jsontext import dumps as encode
from rooms.common.jsontext import loads
from rooms.fanout.hub import Hub, due_of, event_due
from rooms.protocol import dumps
from rooms.room import Join, PlayMove
from tests.support.counting import count_calls
from tests.support.waiting import eventually

# -- the text against the parse -------------------------------------------------------------

_TRICKY = st.sampled_from(
    ["due", '"due":null', '"due":5', 'due":null}', "\\", '"', "{", "}", ":", ",", "null"]
)
_TEXT = st.lists(st.one_of(_TRICKY, st.text(max_size=5)), max_size=4).map("".join)
_SCALAR = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=False), _TEXT)
_VALUE = st.recursive(
    _SCALAR,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3),
        st.dictionaries(st.one_of(_TEXT, st.just("due")), inner, max_size=3),
    ),
    max_leaves=8,
)


@given(
    extra=st.lists(
        st.tuples(st.one_of(_TEXT, st.sampled_from(["due", 'x"due'])), _VALUE), max_size=4
    ),
    due=st.one_of(st.just("absent"), _SCALAR),
    last=st.booleans(),
)
def test_due_of_the_text_is_event_due_of_the_parsed_event(
    extra: list[tuple[str, Any]], due: object, last: bool
) -> None:
    event: dict[str, Any] = {"type": "moved", "version": 3}
    if due != "absent" and not last:
        event["due"] = due
    event.update(extra)  # may set "due" again: the text then has it where it was first
    if due != "absent" and last:
        event.pop("due", None)
        event["due"] = due  # last, as Room.handle adds it
    text = encode(event)  # what the service's dumps writes
    assert due_of(text) == event_due(loads(text))  # what parsing the text tells
    twice = text[:-1] + ',"due":null}'  # the same key again: the last one counts
    assert due_of(twice) is None and event_due(loads(twice)) is None


def test_due_of_the_usual_events() -> None:
    assert due_of('{"type":"moved","version":4,"due":null}') is None
    assert due_of('{"type":"moved","version":4,"due":1712.5}') == 1712.5
    assert due_of('{"type":"moved","version":4,"due":17}') == 17.0
    assert due_of('{"type":"moved","version":4,"due":true}') is None
    # "due" in the text of a name or a line: escaped quotes, not a key.
    named = dumps(
        {"type": "player_joined", "version": 1, "player": {"name": '"due":99'}, "due": 8.0}
    )
    assert '\\"due\\":99' in named and due_of(named) == 8.0
    # Two "due": keys (one nested, or one in a key ending in an escaped quote): parsed,
    # and the top-level one wins.
    for first in ({"players": [{"due": None}]}, {'x"due': None}, {"players": [{"due": 3}]}):
        for top in (None, 5):
            text = dumps({"type": "x", "version": 1, **first, "due": top})
            assert text.count('"due":') == 2 and due_of(text) == top, text
    assert due_of(dumps({"type": "x", "version": 1, 'x"due': None})) is None  # none at top
    assert due_of('{"due":null}') is None  # the only member: parsed
    # Not last: parsed, whatever the text ends with.
    assert due_of('{"type":"x","due":5,"outcome":null}') == 5.0
    assert due_of('{"type":"x","due":6,"a":{"due":null}}') == 6.0
    assert due_of('{"type":"x","due":7,"x\\"due":null}') == 7.0  # a key ending in \"due
    for text in ("[1]", "null", "nope", '"due":null', '[{"due":null}]', 'x,"due":null}'):
        with pytest.raises(ValueError):
            due_of(text)


async def test_real_events_with_due_in_their_text() -> None:
    service = RoomService(MemoryStore())
    room = await service.create(Rules(), public=False)
    texts = []
    for command in (
        Join("x", Role.PLAYER, '"due":12'),
        Join("o", Role.PLAYER, "overdue"),
        PlayMove("x", MoveRequest(col=0, row=0), 2, "m1"),
    ):
        done = await service.execute(room.room_id, command)
        assert done.event is not None
        texts.append((dumps(done.event), done.event))
    for text, event in texts:
        assert due_of(text) == event.due == event_due(loads(text))


# -- through the hub ------------------------------------------------------------------------


async def test_the_hub_hands_on_due_each_events_due_parsing_only_when_not_null(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import rooms.fanout.hub

    parses = count_calls(monkeypatch, rooms.fanout.hub, "loads")
    bus = MemoryBus()
    hub = Hub(bus, RoomCache())
    heard: list[tuple[str, float | None]] = []
    hub.on_due = lambda room_id, due: heard.append((room_id, due))
    delivered: list[int] = []

    class Listener:
        def deliver(self, version: int, text: str) -> None:
            delivered.append(version)

    await hub.attach("roomdue1", Listener())
    events: list[dict[str, Any]] = [
        {"type": "spectators", "version": 1, "count": 1, "due": None},
        {"type": "moved", "version": 2, "mark": "X", "due": 1700000000.25},
        {"type": "player_joined", "version": 3, "player": {"name": 'my "due":7 date'}, "due": None},
        {"type": "presence", "version": 4, "due": 42},
    ]
    for event in events:
        await bus.publish("roomdue1", framed(event["version"], dumps(event), "room text"))
    await eventually(lambda: len(heard) == len(events), "every event's due heard")
    assert delivered == [1, 2, 3, 4]
    assert heard == [
        ("roomdue1", None),
        ("roomdue1", 1700000000.25),
        ("roomdue1", None),
        ("roomdue1", 42.0),
    ]
    assert parses.calls == 2  # only the two events whose due is a number
    await hub.close()
