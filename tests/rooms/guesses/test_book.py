"""The guess book on every backend (memory, a real Redis, a real Redis Cluster): each
worker's tally counts once (its later tally replaces its earlier one), the tallies of two
workers on the same storage add up in one split, and plies and rooms are kept apart."""

from __future__ import annotations

from rooms import Backend
from rooms.backends.redis.guesses import RedisGuessBook
from rooms.guesses import GuessBook, MemoryGuessBook, ply_key


def twin(backend: Backend) -> GuessBook:
    """The book another worker holds on the same storage."""
    if isinstance(backend.guesses, MemoryGuessBook):
        return backend.guesses
    return RedisGuessBook.of_store(backend.store)


async def test_the_split_sums_each_workers_last_tally(backend: Backend) -> None:
    book, other = backend.guesses, twin(backend)
    key = ply_key(1, 0)
    assert await book.split("roomA", key) == {}
    await book.tally("roomA", key, "w1", {"0,0,0": 1})
    await book.tally("roomA", key, "w1", {"1,1,0": 1})  # w1 again: replaces its first
    await other.tally("roomA", key, "w2", {"1,1,0": 1, "2,2,0": 1})
    await book.tally("roomA", ply_key(1, 1), "w1", {"0,0,0": 1})  # the next ply: apart
    await book.tally("roomB", key, "w1", {"0,0,0": 3})  # another room: apart
    assert await book.split("roomA", key) == {"1,1,0": 2, "2,2,0": 1}
    assert await other.split("roomA", key) == {"1,1,0": 2, "2,2,0": 1}
    assert await book.split("roomA", ply_key(1, 1)) == {"0,0,0": 1}
    assert await book.split("roomB", key) == {"0,0,0": 3}
    assert await book.split("roomA", ply_key(2, 0)) == {}


async def test_the_memory_book_forgets_old_plies() -> None:
    now = [0.0]
    book = MemoryGuessBook(ttl=10.0, max_plies=2, clock=lambda: now[0])
    await book.tally("r", "1:0", "w", {"0,0,0": 1})
    now[0] = 11.0
    assert await book.split("r", "1:0") == {}  # expired
    for ply in range(3):
        await book.tally("r", f"1:{ply}", "w", {"0,0,0": 1})
    assert await book.split("r", "1:0") == {}  # the oldest went first
    assert await book.split("r", "1:2") == {"0,0,0": 1}
