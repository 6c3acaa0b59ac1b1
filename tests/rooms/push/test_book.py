"""The push book's contract (rooms.push.book), against memory, a real Redis and a real Redis
Cluster: subscriptions per identity keyed by endpoint, the oldest replaced past the most a
player keeps, removal, and one VAPID key for every worker (whoever stores first)."""

from __future__ import annotations

import base64
import itertools
from collections.abc import AsyncIterator

import pytest

from rooms.backends import open_backend
from rooms.push import MAX_PER_PLAYER, MemoryPushBook, PushBook, PushSubscription
from tests.support.backends import BACKEND_URLS, backend_url, unique_prefix

_clock = itertools.count(1000)
P256DH = base64.urlsafe_b64encode(b"\x04" + bytes(64)).rstrip(b"=").decode()
AUTH = base64.urlsafe_b64encode(bytes(16)).rstrip(b"=").decode()


def subscription(n: int) -> PushSubscription:
    return PushSubscription(f"https://push.example/{n}", P256DH, AUTH)


@pytest.fixture(params=BACKEND_URLS)
async def book(request: pytest.FixtureRequest) -> AsyncIterator[PushBook]:
    url = backend_url(request)
    if url == "memory://":
        yield MemoryPushBook(clock=lambda: float(next(_clock)))
        return
    separator = "&" if "?" in url else "?"
    backend = open_backend(f"{url}{separator}prefix={unique_prefix()}")
    await backend.open()
    try:
        yield backend.push
    finally:
        await backend.close()


async def test_subscriptions_are_kept_per_identity_and_endpoint(book: PushBook) -> None:
    assert await book.of("p1") == []
    await book.add("p1", subscription(1))
    await book.add("p1", subscription(2))
    await book.add("p2", subscription(1))  # one browser, two identities: both kept
    again = PushSubscription(subscription(1).endpoint, P256DH, AUTH.replace("A", "B", 1))
    await book.add("p1", again)  # the same browser subscribed again: replaced
    assert sorted(s.endpoint for s in await book.of("p1")) == [
        "https://push.example/1",
        "https://push.example/2",
    ]
    assert again in await book.of("p1")
    assert await book.of("p2") == [subscription(1)]
    assert await book.remove("p1", subscription(1).endpoint) is True
    assert await book.remove("p1", subscription(1).endpoint) is False
    assert await book.of("p1") == [subscription(2)]


async def test_past_the_most_a_player_keeps_the_oldest_goes(book: PushBook) -> None:
    for n in range(MAX_PER_PLAYER + 2):
        await book.add("p1", subscription(n))
    kept = sorted(int(s.endpoint.rsplit("/", 1)[1]) for s in await book.of("p1"))
    assert kept == list(range(2, MAX_PER_PLAYER + 2))


async def test_every_worker_signs_with_the_first_stored_key(book: PushBook) -> None:
    assert await book.vapid_key("first") == "first"
    assert await book.vapid_key("second") == "first"
