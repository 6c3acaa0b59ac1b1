"""The wire form of every event type, pinned: each built, encoded the one way events are
(rooms.protocol.dumps) and compared with its text, byte for byte. Clients, the event log and
the hubs read these texts (``due`` last: rooms.fanout.hub.due_of)."""

from __future__ import annotations

import typing

import msgspec
import pytest

from rooms.protocol import dumps
from rooms.room.events import (
    DrawDeclined,
    DrawOffered,
    Event,
    EventType,
    GameOver,
    Moved,
    NewGame,
    PlayerJoined,
    Presence,
    Rated,
    RematchOffered,
    Spectators,
    TakebackDeclined,
    TakebackOffered,
    Undone,
    type_of,
    wire_keys,
)

PLAYER = {"mark": "X", "name": "Ada", "connected": True, "wins": 0}
PLAYER_TEXT = '{"mark":"X","name":"Ada","connected":true,"wins":0}'
OFFERS: dict[str, object] = {"draw": None, "takeback": None, "rematch": []}
OFFERS_TEXT = '{"draw":null,"takeback":null,"rematch":[]}'
CLOCK = {"initial": 60.0, "remaining": {"X": 58.5, "O": 60.0}, "running": "O", "deadline": 9.5}
CLOCK_TEXT = '{"initial":60.0,"remaining":{"X":58.5,"O":60.0},"running":"O","deadline":9.5}'
OUTCOME = {"reason": "line", "winner": "X", "loser": None, "line": [{"row": 0, "col": 0}]}
OUTCOME_TEXT = '{"reason":"line","winner":"X","loser":null,"line":[{"row":0,"col":0}]}'

MOVED = Moved(
    version=6,
    mark="X",
    row=1,
    col=2,
    layer=0,
    ply=3,
    turn="O",
    status="playing",
    outcome=None,
    at=3.5,
    clock=CLOCK,
    offers=OFFERS,
    due=9.5,
)
MOVED_TEXT = (
    '"version":6,"mark":"X","row":1,"col":2,"layer":0,"ply":3,"turn":"O","status":"playing",'
    '"outcome":null,"at":3.5'
)

PINNED: list[tuple[Event, str]] = [
    (
        PlayerJoined(
            version=1, player=PLAYER, status="waiting", clock=None, offers=OFFERS, due=None
        ),
        f'{{"type":"player_joined","version":1,"player":{PLAYER_TEXT},"status":"waiting",'
        f'"clock":null,"offers":{OFFERS_TEXT},"due":null}}',
    ),
    (
        Presence(
            version=4,
            mark="O",
            connected=False,
            away_since=2.0,
            left=True,
            claimable_at=7.0,
            due=None,
        ),
        '{"type":"presence","version":4,"mark":"O","connected":false,"away_since":2.0,'
        '"left":true,"claimable_at":7.0,"due":null}',
    ),
    (
        Spectators(version=5, count=2, due=12.25),
        '{"type":"spectators","version":5,"count":2,"due":12.25}',
    ),
    (
        MOVED,
        f'{{"type":"moved",{MOVED_TEXT},"clock":{CLOCK_TEXT},"offers":{OFFERS_TEXT},"due":9.5}}',
    ),
    (  # a move that ended the game: the players with the series score, after ``at``
        msgspec.structs.replace(
            MOVED,
            turn=None,
            status="finished",
            outcome=OUTCOME,
            players=[PLAYER],
            clock=None,
            due=None,
        ),
        '{"type":"moved","version":6,"mark":"X","row":1,"col":2,"layer":0,"ply":3,"turn":null,'
        f'"status":"finished","outcome":{OUTCOME_TEXT},"at":3.5,"players":[{PLAYER_TEXT}],'
        f'"clock":null,"offers":{OFFERS_TEXT},"due":null}}',
    ),
    (  # a proving bot's best guess
        msgspec.structs.replace(MOVED, unproven=True, clock=None, due=None),
        f'{{"type":"moved",{MOVED_TEXT},"unproven":true,"clock":null,"offers":{OFFERS_TEXT},'
        '"due":null}',
    ),
    (
        GameOver(
            version=12,
            outcome={"reason": "resignation", "winner": "O", "loser": "X", "line": []},
            by="X",
            players=[PLAYER],
            at=9.75,
            clock=CLOCK,
            offers=OFFERS,
            due=None,
        ),
        '{"type":"game_over","version":12,"status":"finished","turn":null,'
        '"outcome":{"reason":"resignation","winner":"O","loser":"X","line":[]},"by":"X",'
        f'"players":[{PLAYER_TEXT}],"at":9.75,"clock":{CLOCK_TEXT},"offers":{OFFERS_TEXT},'
        '"due":null}',
    ),
    (
        DrawOffered(version=7, by="X", clock=None, offers=OFFERS, due=None),
        f'{{"type":"draw_offered","version":7,"by":"X","clock":null,"offers":{OFFERS_TEXT},'
        f'"due":null}}',
    ),
    (
        DrawDeclined(version=8, by="O", clock=None, offers=OFFERS, due=None),
        f'{{"type":"draw_declined","version":8,"by":"O","clock":null,"offers":{OFFERS_TEXT},'
        f'"due":null}}',
    ),
    (
        TakebackOffered(version=9, by="O", clock=None, offers=OFFERS, due=None),
        f'{{"type":"takeback_offered","version":9,"by":"O","clock":null,'
        f'"offers":{OFFERS_TEXT},"due":null}}',
    ),
    (
        TakebackDeclined(version=10, by="X", clock=None, offers=OFFERS, due=None),
        f'{{"type":"takeback_declined","version":10,"by":"X","clock":null,'
        f'"offers":{OFFERS_TEXT},"due":null}}',
    ),
    (
        Undone(
            version=10,
            by="X",
            moves=[{"mark": "O", "row": 2, "col": 2, "layer": 0}],
            board=".../.X./...",
            ply=1,
            turn="O",
            status="playing",
            clock=None,
            offers=OFFERS,
            due=None,
        ),
        '{"type":"undone","version":10,"by":"X","moves":[{"mark":"O","row":2,"col":2,"layer":0}],'
        '"board":".../.X./...","ply":1,"turn":"O","status":"playing","clock":null,'
        f'"offers":{OFFERS_TEXT},"due":null}}',
    ),
    (
        RematchOffered(version=13, by="X", clock=None, offers=OFFERS, due=None),
        f'{{"type":"rematch_offered","version":13,"by":"X","clock":null,'
        f'"offers":{OFFERS_TEXT},"due":null}}',
    ),
    (
        NewGame(
            version=14,
            game_number=2,
            marks={"X": "O", "O": "X"},
            players=[PLAYER],
            board=".../.../...",
            turn="X",
            status="playing",
            started_at=20.0,
            clock=None,
            offers=OFFERS,
            due=30.0,
        ),
        '{"type":"new_game","version":14,"game_number":2,"marks":{"X":"O","O":"X"},'
        f'"players":[{PLAYER_TEXT}],"board":".../.../...","ply":0,"turn":"X",'
        f'"status":"playing","started_at":20.0,"clock":null,"offers":{OFFERS_TEXT},'
        '"due":30.0}',
    ),
    (
        Rated(
            version=13,
            game_number=1,
            pool="classic.blitz",
            rating_change={"X": {"before": 1500.0, "after": 1662.3}},
            due=None,
        ),
        '{"type":"rated","version":13,"game_number":1,"pool":"classic.blitz",'
        '"rating_change":{"X":{"before":1500.0,"after":1662.3}},"due":null}',
    ),
]


@pytest.mark.parametrize(
    ("event", "text"), PINNED, ids=[f"{event.type}-{i}" for i, (event, _) in enumerate(PINNED)]
)
def test_each_event_encodes_to_its_pinned_text(event: Event, text: str) -> None:
    assert dumps(event) == text


def test_every_event_type_is_pinned_and_has_one_class() -> None:
    classes = typing.get_args(Event)
    assert sorted(type_of(kind) for kind in classes) == sorted(EventType)  # one class each
    assert {event.type for event, _ in PINNED} == set(EventType)


@pytest.mark.parametrize("kind", typing.get_args(Event), ids=lambda kind: kind.__name__)
def test_every_event_starts_with_its_type_and_version_and_ends_with_due(kind: type) -> None:
    names = list(wire_keys(kind))
    assert names[:2] == ["type", "version"] and names[-1] == "due"


@pytest.mark.parametrize(("event", "text"), PINNED[:3], ids=["first", "second", "third"])
def test_an_event_cannot_be_changed_once_built(event: Event, text: str) -> None:
    with pytest.raises(AttributeError):
        event.version = 99  # type: ignore[misc]
    assert dumps(event) == text
