"""The guess book on every backend (memory, a real Redis, a real Redis Cluster): a guesser's
later guess replaces the earlier, plies and rooms are kept apart, and a second worker's
book on the same storage counts into the same split."""

from __future__ import annotations

from rooms import Backend
from rooms.backends.redis.guesses import RedisGuessBook
from rooms.guesses import GuessBook, MemoryGuessBook, ply_key


def twin(backend: Backend) -> GuessBook:
    """The book another worker holds on the same storage."""
    if isinstance(backend.guesses, MemoryGuessBook):
        return backend.guesses
    return RedisGuessBook.of_store(backend.store)


async def test_the_split_counts_each_guessers_last_guess(backend: Backend) -> None:
    book, other = backend.guesses, twin(backend)
    key = ply_key(1, 0)
    assert await book.split("roomA", key) == {}
    await book.put("roomA", key, {"w1.a": "0,0,0"})
    await book.put("roomA", key, {"w1.a": "1,1,0"})  # changed: replaces
    await other.put("roomA", key, {"w2.b": "1,1,0", "w2.c": "2,2,0"})
    await book.put("roomA", ply_key(1, 1), {"w1.a": "0,0,0"})  # the next ply: apart
    await book.put("roomB", key, {"w1.d": "0,0,0"})  # another room: apart
    assert await book.split("roomA", key) == {"1,1,0": 2, "2,2,0": 1}
    assert await other.split("roomA", key) == {"1,1,0": 2, "2,2,0": 1}
    assert await book.split("roomA", ply_key(1, 1)) == {"0,0,0": 1}
    assert await book.split("roomA", ply_key(2, 0)) == {}


async def test_the_memory_book_forgets_old_plies() -> None:
    now = [0.0]
    book = MemoryGuessBook(ttl=10.0, max_plies=2, clock=lambda: now[0])
    await book.put("r", "1:0", {"a": "0,0,0"})
    now[0] = 11.0
    assert await book.split("r", "1:0") == {}  # expired
    for ply in range(3):
        await book.put("r", f"1:{ply}", {"a": "0,0,0"})
    assert await book.split("r", "1:0") == {}  # the oldest went first
    assert await book.split("r", "1:2") == {"0,0,0": 1}
