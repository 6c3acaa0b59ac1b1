"""The rating book's contract on every backend (memory, a real Redis, a real Redis Cluster):
a rated game changes both ratings once, however often and by however many it is applied; the
leaderboard holds established players only; histories are capped."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from core.glicko2 import Rating, games_to_establish, rate_game
from rooms import Backend
from rooms.backends.redis.ratings import RedisBook
from rooms.common.ids import new_room_id
from rooms.ratings import HISTORY, MemoryBook, RatingBook


@pytest.fixture
def room_id() -> str:
    """A fresh room id, whose first letters also make the test's player ids its own (the
    Redis backends are shared by the module's tests)."""
    return new_room_id(public=False)


def entry(players: list[str], score: float, game_number: int = 1) -> dict[str, Any]:
    return {
        "game_number": game_number,
        "pool": "classic.blitz",
        "marks": ["X", "O"],
        "players": players,
        "score": score,
    }


def twin(backend: Backend) -> RatingBook:
    """A second book on the same storage, as another worker holds it."""
    if isinstance(backend.ratings, MemoryBook):
        return backend.ratings
    return RedisBook.of_store(backend.store)


async def test_a_game_changes_both_ratings_by_glicko2(backend: Backend, room_id: str) -> None:
    book: RatingBook = backend.ratings
    change = await book.apply(entry([f"{room_id}ada", f"{room_id}bob"], 1.0), room_id)
    won, lost = rate_game(Rating(), Rating(), 1.0)
    assert (
        change["X"]["player_id"] == f"{room_id}ada" and change["O"]["player_id"] == f"{room_id}bob"
    )
    assert change["X"]["before"] == change["O"]["before"] == 1500.0
    assert change["X"]["after"] == round(won.rating, 1) > 1500 > change["O"]["after"]
    assert change["O"]["after"] == round(lost.rating, 1)
    assert change["X"]["provisional"] is True and change["X"]["games"] == 1
    ada = await book.standing("classic.blitz", f"{room_id}ada")
    assert ada is not None and ada.rating == won and ada.games == 1
    assert await book.standing("classic.blitz", f"{room_id}nobody") is None
    assert await book.standing("gomoku.blitz", f"{room_id}ada") is None  # pools are apart
    history = await book.history("classic.blitz", f"{room_id}ada")
    assert [(h["rating"], h["room_id"], h["game_number"]) for h in history] == [
        (round(won.rating, 1), room_id, 1)
    ]


async def test_a_game_applied_again_changes_nothing(backend: Backend, room_id: str) -> None:
    book = backend.ratings
    first = await book.apply(entry([f"{room_id}ada", f"{room_id}bob"], 0.5), room_id)
    again = await book.apply(entry([f"{room_id}ada", f"{room_id}bob"], 0.5), room_id)  # a retry
    other = await twin(backend).apply(
        entry([f"{room_id}ada", f"{room_id}bob"], 0.5), room_id
    )  # another worker
    assert first == again == other
    ada = await book.standing("classic.blitz", f"{room_id}ada")
    assert ada is not None and ada.games == 1
    assert len(await book.history("classic.blitz", f"{room_id}ada")) == 1
    # the room's next game is another game
    await book.apply(entry([f"{room_id}bob", f"{room_id}ada"], 1.0, game_number=2), room_id)
    ada = await book.standing("classic.blitz", f"{room_id}ada")
    assert ada is not None and ada.games == 2


async def test_racing_applications_land_once(backend: Backend, room_id: str) -> None:
    books = [backend.ratings, twin(backend)] * 4
    changes = await asyncio.gather(
        *(book.apply(entry([f"{room_id}ada", f"{room_id}bob"], 1.0), room_id) for book in books)
    )
    assert all(change == changes[0] for change in changes)
    bob = await backend.ratings.standing("classic.blitz", f"{room_id}bob")
    assert bob is not None and bob.games == 1


async def test_games_in_several_rooms_at_once_all_count(backend: Backend, room_id: str) -> None:
    """Different games racing on one player: each is applied on the record the one before
    left (the compare-and-set retries), none is lost."""
    books = [backend.ratings, twin(backend)]
    await asyncio.gather(
        *(
            books[i % 2].apply(entry([f"{room_id}ada", f"{room_id}p{i}"], 1.0), f"{room_id}{i}")
            for i in range(8)
        )
    )
    ada = await backend.ratings.standing("classic.blitz", f"{room_id}ada")
    assert ada is not None and ada.games == 8


async def test_the_leaderboard_ranks_established_players_only(
    backend: Backend, room_id: str
) -> None:
    book = backend.ratings
    # ada and bob play 14 games (ada wins one in three, the rest are draws): both become
    # established; cyd plays once and stays provisional
    for game in range(1, 15):
        score = 0.5 if game % 3 else 1.0
        await book.apply(entry([f"{room_id}ada", f"{room_id}bob"], score, game), room_id)
    await book.apply(entry([f"{room_id}cyd", f"{room_id}bob"], 1.0, game_number=99), room_id)
    ada = await book.standing("classic.blitz", f"{room_id}ada")
    cyd = await book.standing("classic.blitz", f"{room_id}cyd")
    assert ada is not None and not ada.rating.provisional
    assert cyd is not None and cyd.rating.provisional
    top = await book.top("classic.blitz", 10)
    assert [player for player, _ in top] == [f"{room_id}ada", f"{room_id}bob"]
    assert top[0][1] == pytest.approx(ada.rating.rating)
    assert await book.rank("classic.blitz", f"{room_id}bob") == 1
    assert await book.rank("classic.blitz", f"{room_id}cyd") is None
    assert await book.window("classic.blitz", 1, 5) == top[1:]
    assert len(await book.history("classic.blitz", f"{room_id}ada")) == 14
    assert await book.top("gomoku.rapid", 10) == []


async def test_provisional_players_are_listed_apart_until_established(
    backend: Backend, room_id: str
) -> None:
    book = backend.ratings
    ada, bob, cyd = (f"{room_id}{name}" for name in ("ada", "bob", "cyd"))

    async def provisional() -> list[str]:  # this test's players (the Redis pool is shared)
        listed = await book.provisional("classic.blitz", 100)
        return [player for player, _ in listed if player.startswith(room_id)]

    change = await book.apply(entry([ada, bob], 1.0, 1), room_id)
    assert await provisional() == [ada, bob]  # best first: ada won
    assert (
        change["X"]["games_to_rank"]
        == games_to_establish(
            (await book.standing("classic.blitz", ada)).rating  # type: ignore[union-attr]
        )
        > 0
    )
    for game in range(2, 17):  # 16 games in all: both established
        await book.apply(entry([ada, bob], 0.5 if game % 3 else 1.0, game), room_id)
    await book.apply(entry([cyd, bob], 1.0, game_number=99), room_id)
    assert await provisional() == [cyd]  # ada and bob are on the leaderboard now
    standing = await book.standing("classic.blitz", cyd)
    assert standing is not None and standing.public()["games_to_rank"] >= 1
    established = await book.standing("classic.blitz", ada)
    assert established is not None and established.public()["games_to_rank"] == 0


async def test_a_history_keeps_the_newest_entries(backend: Backend, room_id: str) -> None:
    book = backend.ratings
    for game in range(1, HISTORY + 6):
        await book.apply(entry([f"{room_id}ada", f"{room_id}bob"], 0.5, game_number=game), room_id)
    history = await book.history("classic.blitz", f"{room_id}ada")
    assert len(history) == HISTORY
    assert [h["game_number"] for h in history] == list(range(HISTORY + 5, 5, -1))
