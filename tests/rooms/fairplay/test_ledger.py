"""The fair-play ledger's contract on every backend (memory, a real Redis, a real Redis
Cluster): a game counts once however often and by however many it is recorded, the counts
add up, and a player is flagged exactly when the rule says (rooms.fairplay.ledger)."""

from __future__ import annotations

import asyncio

import pytest

from core.fairplay import Judged
from rooms import Backend
from rooms.backends.redis.fairplay import RedisLedger
from rooms.common.ids import new_room_id
from rooms.fairplay import FLAG_CRITICAL, FLAG_RATE, FairPlayLedger, MemoryLedger, Summary


@pytest.fixture
def tag() -> str:
    """A fresh prefix for the test's player and game ids (the Redis backends are shared by
    the module's tests)."""
    return new_room_id(public=False)


def twin(backend: Backend) -> FairPlayLedger:
    """A second ledger on the same storage, as another worker holds it."""
    if isinstance(backend.fairplay, MemoryLedger):
        return backend.fairplay
    return RedisLedger.of_store(backend.store)


async def test_a_game_counts_once_whoever_records_it(backend: Backend, tag: str) -> None:
    ada, bob = f"{tag}ada", f"{tag}bob"
    game = {ada: Judged(5, 4), bob: Judged(3, 1)}
    ledgers = [backend.fairplay, twin(backend), backend.fairplay]
    answers = await asyncio.gather(*(ledger.record(f"{tag}:1", game) for ledger in ledgers))
    counted = [a for a in answers if a is not None]
    assert len(counted) == 1  # the others found the marker
    assert counted[0] == [Summary(ada, 1, 5, 4), Summary(bob, 1, 3, 1)]
    await backend.fairplay.record(f"{tag}:2", {ada: Judged(2, 2)})
    assert await twin(backend).summary(ada) == Summary(ada, 2, 7, 6)
    assert await backend.fairplay.summary(f"{tag}nobody") == Summary(f"{tag}nobody")
    assert (await backend.fairplay.summary(ada)).public() == {
        "player_id": ada, "games": 2, "critical": 7, "matched": 6, "rate": 0.8571,
        "flagged": False,
    }  # fmt: skip


async def test_a_player_is_flagged_only_over_many_critical_positions(
    backend: Backend, tag: str
) -> None:
    ledger = backend.fairplay
    perfect, human = f"{tag}perfect", f"{tag}human"
    short = FLAG_CRITICAL - 10
    await ledger.record(f"{tag}:1", {perfect: Judged(short, short), human: Judged(short, short)})
    flagged = await ledger.flagged(1000)
    assert perfect not in flagged and human not in flagged  # too few positions to say
    # ten more: the perfect one stays at 100 %, the human misses enough to fall under
    misses = int(FLAG_CRITICAL * (1 - FLAG_RATE)) + 1
    await ledger.record(f"{tag}:2", {perfect: Judged(10, 10), human: Judged(10, 10 - misses)})
    flagged = await twin(backend).flagged(1000)
    assert perfect in flagged and human not in flagged
    assert (await ledger.summary(perfect)).flagged
    # and a flag is lifted when later games bring the rate under the line
    await ledger.record(f"{tag}:3", {perfect: Judged(40, 20)})
    assert perfect not in await ledger.flagged(1000)
