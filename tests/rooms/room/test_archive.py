"""A room's earlier games (rooms.room.archive): stored as the JSON text they were written as,
one record per line, parsed only when read and at most once, spliced when a game is added
and cut when the oldest goes (never parsed for either), shared by copies; the stored
format 1 (games inline) and archives stored with plain commas still decode; a corrupted
archive is refused when read.

Parses are counted by wrapping the real ``loads`` the archive calls."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence

import pytest

from core import MoveRequest, Rules
from rooms import ErrorCode, Role, Room, RoomError, RoomService
from rooms.backends import MemoryStore
from rooms.backends.store import Frame, framed, unframe
from rooms.cache import RoomCache
from rooms.common.jsontext import dumps
from rooms.protocol import decode_room, encode_room
from rooms.room import Join, PlayMove, Rematch
from rooms.room import archive as archive_module
from rooms.room.archive import EMPTY, Archive
from rooms.room.commands import Resign
from rooms.room.record import format_record
from rooms.room.rematch import KEEP_GAMES
from tests.rooms.room.lifecycle_helpers import T0, at, play, refused_at, room_with
from tests.rooms.room.room_helpers import conn_of
from tests.support.counting import count_calls


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch) -> Callable[[], int]:
    """How many archive texts were parsed since the test started."""
    counted = count_calls(monkeypatch, archive_module, "loads")
    return lambda: counted.calls


def one_per_line(records: Sequence[object]) -> str:
    """The text of ``records`` as the archive writes it: one record per line."""
    return "[" + ",\n".join(dumps(r) for r in records) + "\n]" if records else "[]"


def series(room: Room, games: int, t: float = T0) -> float:
    """``games`` games won by resignation at the first move, each followed by a rematch."""
    for _ in range(games):
        x, o = conn_of(room, "X"), conn_of(room, "O")
        play(room, x, 1, 1, t)
        at(room, Resign(o), t + 1)
        at(room, Rematch(x), t + 2)
        at(room, Rematch(o), t + 3)
        t += 4
    return t


def test_the_archive_is_a_second_part_written_and_read_back_as_is(parses) -> None:  # type: ignore[no-untyped-def]
    room, _ = room_with()
    assert encode_room(room).count("\n") == 0  # no earlier games: one JSON text
    series(room, 3)
    text = encode_room(room)
    head, _, games = text.partition("\n")  # the room, then the games one per line
    assert json.loads(head)["format"] == 2 and "games" not in json.loads(head)
    assert [g["game_number"] for g in json.loads(games)] == [1, 2, 3]
    assert games == one_per_line(json.loads(games)) and games.count("\n") == 3
    parsed_before = parses()
    twin = decode_room(text)
    assert encode_room(twin) == text and encode_room(twin.copy()) == text
    assert parses() == parsed_before, "decoding or encoding parsed the archive"
    assert twin.snapshot(T0 + 50) == room.snapshot(T0 + 50)
    assert twin.snapshot(T0 + 60)["games"] == room.snapshot(T0 + 60)["games"]
    assert parses() == parsed_before + 1, "read twice, parsed once"


def test_appending_splices_the_text_and_keeps_the_newest_games() -> None:
    records = [{"game_number": n, "moves": [], "players": []} for n in range(1, KEEP_GAMES + 3)]
    games = EMPTY
    for count, record in enumerate(records, start=1):
        games = games.appended(record, KEEP_GAMES)
        kept = records[max(0, count - KEEP_GAMES) : count]
        assert list(games) == kept and len(games) == len(kept) and games[-1] is record
        assert games.text == one_per_line(kept) and json.loads(games.text) == kept
        assert list(Archive.stored(games.text)) == kept
    assert EMPTY.text == "[]" and not EMPTY and not Archive.stored("[]") and games


def test_a_new_game_in_a_full_archive_parses_nothing_and_drops_the_oldest(parses) -> None:  # type: ignore[no-untyped-def]
    room, _ = room_with()
    t = series(room, KEEP_GAMES)
    room = decode_room(encode_room(room))
    before = parses()
    series(room, 2, t)
    assert parses() == before, "a new game parsed the archive"
    assert len(room.games) == KEEP_GAMES and parses() == before  # counted by its lines
    numbers = [g["game_number"] for g in room.games]
    assert numbers == list(range(3, KEEP_GAMES + 3))
    assert [g["game_number"] for g in decode_room(encode_room(room)).games] == numbers


def test_copies_share_the_archive_and_a_rematch_on_one_leaves_the_other() -> None:
    room, _ = room_with()
    t = series(room, 2)
    play(room, "c0", 1, 1, t)
    at(room, Resign("c1"), t + 1)
    twin = room.copy()
    assert twin.games is room.games
    at(twin, Rematch("c0"), t + 2)
    at(twin, Rematch("c1"), t + 3)
    assert len(twin.games) == 3 and len(room.games) == 2


FORMAT_1 = (
    '{"format":1,"room_id":"room0001","public":false,"created":1000.0,"updated":1004.0,'
    '"version":6,"game_version":6,"game":{"format":1,"rules":{"rows":3,"cols":3,"k":3,'
    '"gravity":false,"misere":false,"players":2,"layers":1,"early_draw":false},"moves":[]},'
    '"seats":[{"mark":"X","name":"P1","token_hash":"eb12cb67ce9d2a112eafc71de3db8598746437'
    '356e2a56c648610018c34c1e88","connections":["c1"],"moves":{},"bot":null,'
    '"away_since":null,"left":false,"wins":0,"draws":0},{"mark":"O","name":"P0",'
    '"token_hash":"1edd20417f04071048ec88c562b3f60c9caaa5587b796fa6185fe6e972f97131",'
    '"connections":["c0"],"moves":{},"bot":null,"away_since":null,"left":false,"wins":1,'
    '"draws":0}],"spectators":[],"settings":{"time_control":null,"abandon_grace":30.0,'
    '"leave_grace":5.0,"takeback_backoff":5.0,"bot_budget":1.0,"bot_grace":2.0},'
    '"clock":null,"turn_started":1004.0,"started_at":1004.0,"ended_at":null,'
    '"move_times":[],"offers":{"draw":null,"draw_moves":{},"takeback":null,'
    '"takeback_declines":{},"takeback_not_before":{},"rematch":[]},"game_number":2,'
    '"games":[{"game_number":1,"players":[{"mark":"X","name":"P0"},{"mark":"O",'
    '"name":"P1"}],"moves":[{"mark":"X","row":1,"col":1,"layer":0,"at":1001.0}],'
    '"outcome":{"reason":"resignation","winner":"X","loser":"O","line":[]},'
    '"started_at":1000.0,"ended_at":1002.0,"time_control":null}]}'
)
"""A room after one rematch as format 1 wrote it (the earlier games inline)."""


def test_a_room_stored_in_format_1_still_decodes_and_is_written_as_format_2() -> None:
    room = decode_room(FORMAT_1)
    assert room.game_number == 2 and [g["game_number"] for g in room.games] == [1]
    assert room.snapshot()["games"][0]["outcome"]["winner"] == "X"
    text = format_record(room.room_id, room.rules, room.games[0])
    assert '[Result "1-0"]' in text and "1. X r1c1 1.000" in text
    head, _, games = encode_room(room).partition("\n")
    assert json.loads(games) == json.loads(FORMAT_1)["games"]
    assert games == one_per_line(json.loads(FORMAT_1)["games"])
    assert decode_room(f"{head}\n{games}").snapshot() == room.snapshot()
    broken = FORMAT_1.replace('"games":[{', '"games":[7,{')
    with pytest.raises(RoomError) as info:
        decode_room(broken)  # inline games are parsed with the room, so checked with it
    assert info.value.code is ErrorCode.INTERNAL_ERROR


def stored_with_games(games: str) -> str:
    room, _ = room_with()
    series(room, 1)
    head, _, _ = encode_room(room).partition("\n")
    return f"{head}\n{games}"


@pytest.mark.parametrize("games", ['{"game_number":1}', "[{", "not json", '"[]"'])
def test_an_archive_that_cannot_be_an_array_is_refused_when_decoded(games: str) -> None:
    with pytest.raises(RoomError) as info:
        decode_room(stored_with_games(games))
    assert info.value.code is ErrorCode.INTERNAL_ERROR


@pytest.mark.parametrize("games", ['[{"game_number":1},]', "[1,2]", '[{"a":1}]]', "[{]"])
def test_a_corrupted_archive_with_plain_commas_is_refused_when_read_and_changes_nothing(
    games: str,
) -> None:
    """Stored with plain commas (no newline): reading it refuses, and so does the rematch,
    which must parse it to write it one record per line."""
    room = decode_room(stored_with_games(games))  # checked cheaply: the brackets
    for read in (room.snapshot, lambda: list(room.games)):
        with pytest.raises(RoomError) as info:
            read()
        assert info.value.code is ErrorCode.INTERNAL_ERROR
    x, o = conn_of(room, "X"), conn_of(room, "O")
    for role in (Role.SPECTATOR, Role.PLAYER):  # a welcome would show it: refused first
        joining = refused_at(room, Join(f"new-{role}", role), T0 + 19)
        assert joining.code is ErrorCode.INTERNAL_ERROR
    play(room, x, 1, 1, T0 + 20)  # the game goes on: nothing reads the archive
    at(room, Resign(o), T0 + 21)
    at(room, Rematch(x), T0 + 22)
    refusal = refused_at(room, Rematch(o), T0 + 23)  # archiving the game reads it
    assert refusal.code is ErrorCode.INTERNAL_ERROR
    assert room.offers.rematch == [room.seated(x).mark]


async def test_moves_in_a_room_full_of_games_never_parse_its_archive(parses) -> None:  # type: ignore[no-untyped-def]
    """Warm (the cache holds the decoded room) and cold (every command decodes the stored
    text): the moves carry the archive's text along without parsing it; a join does."""
    room, _ = room_with()
    series(room, KEEP_GAMES)
    for size in (4096, 0):
        store = MemoryStore()
        service = RoomService(store, cache=RoomCache(size=size), clock=lambda: T0 + 500)
        assert await store.create(room.room_id, encode_room(room), listed=False)
        before = parses()
        for ply, (row, col) in enumerate([(0, 0), (1, 1), (0, 1), (2, 2), (0, 2)]):
            held = await service.load(room.room_id)
            conn = conn_of(held, held.game.turn)
            request = MoveRequest(col=col, row=row)
            await service.execute(room.room_id, PlayMove(conn, request, held.version, f"m{ply}"))
        assert parses() == before, f"cache size {size}"
        await service.execute(room.room_id, Join("s", Role.SPECTATOR))  # its welcome shows them
        assert parses() > before, f"cache size {size}: a join checks the archive first"
        assert (await service.load(room.room_id)).game.is_over
        stored = await store.load(room.room_id)
        assert stored is not None and stored.data.endswith(room.games.text)


def test_a_room_with_rules_of_any_shape_round_trips_its_games() -> None:
    room, _ = room_with(Rules(rows=4, cols=4, k=3, players=3))
    t = T0
    for _ in range(2):
        marks = room.rules.marks
        conns = [conn_of(room, m) for m in marks]
        play(room, conns[0], 0, 0, t)
        at(room, Resign(conns[1]), t + 1)  # with three players, one resignation ends it
        for conn in conns:
            room.handle(Rematch(conn), t + 3)
        t += 4
    twin = decode_room(encode_room(room))
    assert twin.snapshot() == room.snapshot() and len(twin.games) == 2


# -- one record per line: a new game never parses ------------------------------------------


def records_numbered(first: int, last: int) -> list[dict[str, object]]:
    """Records shaped as rooms.room.record writes them (small: the archive does not look in)."""
    return [
        {
            "game_number": n,
            "players": [{"mark": "X", "name": f"P{n}"}],
            "moves": [],
            "outcome": {"reason": "draw", "winner": None},
            "started_at": float(n),
        }
        for n in range(first, last + 1)
    ]


def test_appends_and_drops_never_parse_and_the_text_stays_the_records(parses) -> None:  # type: ignore[no-untyped-def]
    records = records_numbered(1, 3 * KEEP_GAMES)
    chained = Archive.stored(one_per_line(records[:KEEP_GAMES]))
    for count, record in enumerate(records[KEEP_GAMES:], start=KEEP_GAMES + 1):
        kept = records[count - KEEP_GAMES : count]
        carried = Archive.stored(chained.text)  # as a worker gets it from the bus: unparsed
        chained = chained.appended(record, KEEP_GAMES)
        fresh = carried.appended(record, KEEP_GAMES)
        assert fresh.text == chained.text == one_per_line(kept)
        assert len(fresh) == len(chained) == KEEP_GAMES and fresh and chained
    small = EMPTY
    for count, record in enumerate(records[:5], start=1):  # growing, then capped at 3
        small = Archive.stored(small.text).appended(record, 3)
        assert small.text == one_per_line(records[max(0, count - 3) : count]) and len(small) > 0
    ten = Archive.stored(one_per_line(records[:10]))
    assert ten.appended(records[10], 3).text == one_per_line(records[8:11])  # eight go at once
    assert ten.appended(records[10], 1).text == one_per_line(records[10:11])
    assert parses() == 0, "appending, dropping, len or bool parsed an archive"
    kept = records[-KEEP_GAMES:]
    assert json.loads(chained.text) == kept and list(Archive.stored(chained.text)) == kept
    assert list(chained) == kept and parses() == 2  # each value parsed once, when read


def test_records_in_memory_stay_parsed_and_are_written_one_per_line(parses) -> None:  # type: ignore[no-untyped-def]
    records = records_numbered(1, KEEP_GAMES + 1)
    parsed = Archive.of(records[:KEEP_GAMES])
    assert parsed.text == one_per_line(records[:KEEP_GAMES])
    full = parsed.appended(records[KEEP_GAMES], KEEP_GAMES)
    assert full[0] is records[1] and full[-1] is records[-1]  # kept, not parsed again
    assert full.text == one_per_line(records[1:]) and parses() == 0


def test_an_archive_with_plain_commas_reads_and_is_rewritten_on_its_first_new_game(parses) -> None:  # type: ignore[no-untyped-def]
    records = records_numbered(1, KEEP_GAMES + 2)
    legacy = dumps(records[:KEEP_GAMES])
    assert "\n" not in legacy and list(Archive.stored(legacy)) == records[:KEEP_GAMES]
    assert len(Archive.stored(dumps(records[:1]))) == 1  # one record: no newline either
    before = parses()
    games = Archive.stored(legacy).appended(records[KEEP_GAMES], KEEP_GAMES)
    assert parses() == before + 1, "the first new game parses a legacy archive once"
    assert games.text == one_per_line(records[1 : KEEP_GAMES + 1])
    games = Archive.stored(games.text).appended(records[-1], KEEP_GAMES)
    assert parses() == before + 1, "then it is one record per line: no more parses"
    assert games.text == one_per_line(records[2:]) and list(games) == records[2:]
    # an older worker splices its game onto a text written one per line with a plain comma
    mixed = f"{one_per_line(records[:3])[:-1]},{dumps(records[3])}]"
    assert list(Archive.stored(mixed)) == records[:4] and len(Archive.stored(mixed)) == 4
    rewritten = Archive.stored(mixed).appended(records[4], KEEP_GAMES)
    assert rewritten.text == one_per_line(records[:5])
    room = decode_room(stored_with_games(dumps(records[:3])))  # a room stored so, then a game
    series(room, 1, T0 + 20)
    _, _, text = encode_room(decode_room(encode_room(room))).partition("\n")
    assert text == one_per_line(json.loads(text))
    assert [g["game_number"] for g in json.loads(text)] == [1, 2, 3, 2]


def test_a_record_with_newlines_and_quotes_in_its_strings_round_trips() -> None:
    name = 'P "zero"\nsecond line\r\n\\ \u2028 é {"x": 1},\n]'
    room, _ = room_with()
    room.seats[0].name = name
    series(room, 3)
    text = encode_room(room)
    head, _, games = text.partition("\n")
    assert games.count("\n") == 3 and games == one_per_line(json.loads(games))
    assert {p["name"] for g in json.loads(games) for p in g["players"]} == {name, "P1"}
    twin = decode_room(text)
    assert twin.snapshot(T0 + 50) == room.snapshot(T0 + 50) and len(twin.games) == 3
    assert twin.games.appended(twin.games[0], 2).text == one_per_line(
        [*list(room.games)[2:], room.games[0]]
    )
    event = dumps({"type": "moved", "version": room.version})
    assert unframe(framed(room.version, event, text)) == Frame(room.version, event, text)
    carried = (unframe(framed(room.version, event, text)) or Frame(0, "", "")).data
    assert decode_room(carried).snapshot(T0) == room.snapshot(T0)
    assert json.loads(head)["format"] == 2


@pytest.mark.parametrize(
    "games",
    ['[{"game_number":1},\n7\n]', '[{"game_number":1},\n{]\n]', '[{"a":1},{"b":2}\n]', "[\n]"],
)
def test_a_corrupted_archive_one_per_line_takes_a_new_game_and_is_still_refused_when_read(
    games: str, parses: Callable[[], int]
) -> None:
    """A rematch no longer reads the archive: it splices the game in; every read (a
    snapshot, the records, a join before it commits) goes on refusing the archive."""
    room = decode_room(stored_with_games(games))
    lines = games.count("\n")
    assert len(room.games) == lines  # counted, not parsed
    t = series(room, 1, T0 + 20)  # the rematch is not refused
    assert parses() == 0 and len(room.games) == lines + 1 and room.game_number == 3
    for twin in (room, decode_room(encode_room(room))):
        for read in (twin.snapshot, lambda twin=twin: list(twin.games)):
            with pytest.raises(RoomError) as info:
                read()
            assert info.value.code is ErrorCode.INTERNAL_ERROR
        joining = refused_at(twin, Join("late", Role.SPECTATOR), t)
        assert joining.code is ErrorCode.INTERNAL_ERROR
