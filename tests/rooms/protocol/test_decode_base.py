"""Decoding a room from an earlier state of it (``decode_room(text, base)``, what a worker's
cache does when another worker committed the next move) gives exactly the room a full
decode gives, and refuses exactly what a full decode refuses.

Random games of every variant are driven through the sans-I/O room (moves, takebacks,
draw offers, resignations, rematches into the archive, spectators coming and going,
clocks); after every change the new text is decoded from the previous decoded room, and
from an older one, and compared with a full decode: the encoded room and the game's state.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from core import Game, MoveRequest, Rules
from rooms import Role, Room, RoomError
from rooms.backends import StoredRoom
from rooms.cache import RoomCache
from rooms.protocol import decode_room, encode_room
from rooms.room import Answer, Join, Leave, Offer, OfferKind, PlayMove, Rematch, Resign
from rooms.room.config import RoomSettings, TimeControl
from rooms.service import _decoded
from tests.rooms.room.room_helpers import conn_of, decode_refusal, edited, new_room, texts_of

VARIANTS = {
    "3x3": Rules(),
    "7x6 gravity": Rules(rows=6, cols=7, k=4, gravity=True),
    "15x15": Rules(rows=15, cols=15, k=5),
    "4x4x4 k=4": Rules(rows=4, cols=4, layers=4, k=4),
    "misere": Rules(misere=True),
    "4x4x4 gravity": Rules(rows=4, cols=4, layers=4, k=4, gravity=True),
}


def state(game: Game) -> tuple[Any, ...]:
    return (
        game.board.text,
        game.history_indices,
        game.outcome,
        game.turn,
        game.ply,
        game.win_strategy,
        game.legal_indices(),
    )


def request_for(rules: Rules, game: Game, rng: random.Random) -> MoveRequest:
    row, col, layer = rules.coords(rng.choice(game.legal_indices()))
    if rules.gravity:
        return MoveRequest(col=col, row=row if rules.is_3d else None)
    return MoveRequest(row=row, col=col, layer=layer if rules.is_3d else None)


def step(room: Room, rng: random.Random, now: float) -> None:
    """One random command, refused or not (a refusal changes nothing)."""
    game, players = room.game, [seat.connections[0] for seat in room.seats]
    roll = rng.random()
    asking = room.offers.takeback
    if game.is_over:
        command: Any = Rematch(rng.choice(players))
    elif asking is not None and roll < 0.6:  # a takeback is mostly granted: history shrinks
        other = next(conn for conn in players if conn != conn_of(room, asking))
        command = Answer(other, OfferKind.TAKEBACK, accept=roll < 0.5)
    elif roll < 0.72:
        mover = conn_of(room, game.turn)
        command = PlayMove(
            mover, request_for(room.rules, game, rng), room.version, f"m{room.version}"
        )
    elif roll < 0.78:
        command = Join(f"s{rng.randrange(4)}", Role.SPECTATOR)
    elif roll < 0.84:
        command = Leave(f"s{rng.randrange(4)}")
    elif roll < 0.9:
        command = Offer(rng.choice(players), OfferKind.TAKEBACK)
    elif roll < 0.93:
        command = Offer(rng.choice(players), OfferKind.DRAW)
    elif roll < 0.985:
        kind = OfferKind.TAKEBACK if rng.random() < 0.7 else OfferKind.DRAW
        command = Answer(rng.choice(players), kind, accept=rng.random() < 0.8)
    else:
        command = Resign(rng.choice(players))
    with contextlib.suppress(RoomError):  # a refusal changes nothing: drive on
        room.handle(command, now)


def games(name: str, seed: int) -> Iterator[str]:
    """The texts of one random room, one after every change (the first with both seats)."""
    rng = random.Random(seed)
    rules = VARIANTS[name]
    settings = (
        RoomSettings(time_control=TimeControl(initial=600.0, increment=2.0)) if (seed % 2) else None
    )
    room = new_room(rules)
    if settings is not None:
        room = Room("room0001", rules, public=False, created=100.0, settings=settings)
    now = 101.0
    for i in range(rules.players):
        room.handle(Join(f"c{i}", Role.PLAYER, f"P{i}"), now)
    text = encode_room(room)
    yield text
    for _ in range(160 if rules.cells > 9 else 90):
        now += rng.random()
        step(room, rng, now)
        if encode_room(room) != text:
            text = encode_room(room)
            yield text


@pytest.mark.parametrize("name", VARIANTS)
@pytest.mark.parametrize("seed", range(6))
def test_a_room_decoded_from_an_earlier_one_is_the_fully_decoded_room(name: str, seed: int) -> None:
    rng = random.Random(seed)
    decoded: list[Room] = []
    for text in games(name, seed):
        full = decode_room(text)
        bases = [decoded[-1]] if decoded else []
        if len(decoded) > 2:
            bases.append(rng.choice(decoded[:-1]))  # several moves back, or a past game
        for base in bases:
            before = encode_room(base)
            room = decode_room(text, base)
            assert encode_room(room) == text == encode_room(full)
            assert state(room.game) == state(full.game)
            assert room.game is not base.game and room.game.board is not base.game.board
            assert encode_room(base) == before  # the base is only read
        decoded.append(decode_room(text, decoded[-1]) if decoded else full)


def _text_after(rules: Rules, cells: list[int]) -> str:
    return texts_of(rules, cells)[-1]


def _with_moves(text: str, moves: list[Any]) -> str:
    return edited(text, lambda data: data["game"].__setitem__("moves", moves))


@pytest.mark.parametrize(
    "moves",
    [
        [0, 4, 0],  # a new move on a taken cell
        [0, 4, 1, 4],
        [0, 4, 99],  # off the board
        [0, 4, -1],
        [0, 4, 1.0],  # not a whole number (1.0 == 1 but a replay refuses it)
        [0, 4, True],
        [0, 4, "1"],
        [0.0, 4, 1],  # the base's own moves, but not as the engine wrote them
        [False, 4, 1],
        [0, 4, 1, 3, 2, 5, 6],  # X completed the top row at 2: no move after the end
    ],
)
def test_a_corrupted_record_is_refused_as_a_full_decode_refuses_it(moves: list[Any]) -> None:
    base = decode_room(_text_after(Rules(), [0, 4]))
    text = _with_moves(_text_after(Rules(), [0, 4, 1, 3]), moves)
    assert decode_refusal(text, base) == decode_refusal(text, None)


def test_a_record_that_does_not_go_on_from_the_base_is_decoded_in_full() -> None:
    base = decode_room(_text_after(Rules(), [0, 4, 8]))
    for cells in ([0, 4], [4, 0, 8], [], [0, 4, 2, 1]):  # taken back, other games
        text = _text_after(Rules(), cells)
        assert encode_room(decode_room(text, base)) == text
        assert state(decode_room(text, base).game) == state(decode_room(text).game)
    other = decode_room(_text_after(Rules(rows=4, cols=4, k=3), [0, 5]))
    text = _text_after(Rules(), [0, 5, 8])  # other rules, the same first cells
    assert state(decode_room(text, other).game) == state(decode_room(text).game)


def test_an_ending_off_the_board_is_never_carried_over() -> None:
    room = decode_room(_text_after(Rules(), [0, 4]))
    resigned = room.copy()
    resigned.handle(Resign("c0"), 103.0)
    text = encode_room(resigned)
    base = decode_room(text)
    assert base.game.ended_off_board
    # the same moves and the same end again: the base's end must not be applied twice
    assert state(decode_room(text, base).game) == state(decode_room(text).game)
    data = json.loads(text)
    data["game"].pop("end")  # the same moves with no end: not over
    plain = json.dumps(data, separators=(",", ":"))
    assert not decode_room(plain, base).game.is_over
    assert encode_room(decode_room(plain, base)) == encode_room(decode_room(plain))


def test_only_the_new_moves_are_played(monkeypatch: pytest.MonkeyPatch) -> None:
    played: list[int] = []
    replay = Game.play_indices

    def counted(game: Game, indices: Any) -> None:
        indices = list(indices)
        played.append(len(indices))
        replay(game, indices)

    base = decode_room(_text_after(Rules(rows=15, cols=15, k=5), list(range(0, 60, 3))))
    text = _text_after(Rules(rows=15, cols=15, k=5), [*range(0, 60, 3), 100])
    monkeypatch.setattr(Game, "play_indices", counted)
    decode_room(text, base)
    decode_room(text)
    assert played == [1, 21]


# -- the cache hands the room it held to the next text's decode ---------------------------


def test_a_newer_text_is_decoded_from_the_room_the_entry_held(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    texts = [_text_after(Rules(), [0, 4, 8][:n]) for n in range(4)]
    cache = RoomCache()
    cache.offer("room0001", 0, texts[0])
    first = cache.get("room0001")
    assert first is not None and first.base is None
    held = _decoded(first)
    cache.offer("room0001", 1, texts[1])
    cache.offer("room0001", 2, texts[2])  # not decoded in between: the same base passes on
    entry = cache.get("room0001")
    assert entry is not None and entry.base is held and entry.room is None
    bases: list[Room | None] = []

    def recorded(text: str, base: Room | None = None) -> Room:
        bases.append(base)
        return decode_room(text, base)

    monkeypatch.setattr("rooms.service.decode_room", recorded)
    room = _decoded(entry)
    assert bases == [held] and entry.base is None  # one room per entry once decoded
    assert encode_room(room) == texts[2]
    cache.offer("room0001", 3, texts[3], decode_room(texts[3]))  # decoded already: no base
    latest = cache.get("room0001")
    assert latest is not None and latest.base is None


def test_a_load_replacing_a_stale_copy_keeps_its_room_as_the_base() -> None:
    texts = [_text_after(Rules(), [0, 4, 8][:n]) for n in range(3)]
    cache = RoomCache()
    cache.offer("room0001", 1, texts[1])
    first = cache.get("room0001")
    assert first is not None
    held = _decoded(first)
    put = cache.put("room0001", StoredRoom(2, texts[2]))
    assert put.base is held and put.room is None
    assert encode_room(_decoded(put)) == texts[2] and put.base is None
    again = cache.put("room0001", StoredRoom(2, texts[2]))  # the same text: the same room
    assert again.room is put.room and again.base is None
    detached = RoomCache(size=0).put("room0001", StoredRoom(2, texts[2]))
    assert detached.base is None and detached.room is None
