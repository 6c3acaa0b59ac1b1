"""The Redis store/bus contract (backends/redis/test_contract.py) again, on a real Redis Cluster.

The same test functions run here with ``backends`` making cluster pairs (each with its own
cluster clients and per-shard pub/sub links) on the session's three-master cluster
(conftest.py), a fresh key prefix per test. The fixed room ids of those tests hash to
slots on different masters, so the suite crosses shards.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.rooms.backends.redis.test_contract import (
    test_commit_is_compare_and_set,
    test_commit_to_a_missing_room_writes_nothing,
    test_commits_reach_subscribers_in_version_order,
    test_create_then_load_and_ids_are_never_reused,
    test_event_log_is_bounded,
    test_events_since,
    test_listing_newest_first_public_and_unfinished_only,
    test_ping,
    test_refused_commits_publish_nothing,
    test_subscriptions_fan_out_and_close_independently,
    test_text_round_trips_exactly,
    test_workers_see_each_others_commits,
)
from tests.support.backends import BackendMaker
from tests.support.redis_cluster import LocalCluster

pytestmark = pytest.mark.redis

__all__ = [
    "test_commit_is_compare_and_set",
    "test_commit_to_a_missing_room_writes_nothing",
    "test_commits_reach_subscribers_in_version_order",
    "test_create_then_load_and_ids_are_never_reused",
    "test_event_log_is_bounded",
    "test_events_since",
    "test_listing_newest_first_public_and_unfinished_only",
    "test_ping",
    "test_refused_commits_publish_nothing",
    "test_subscriptions_fan_out_and_close_independently",
    "test_text_round_trips_exactly",
    "test_workers_see_each_others_commits",
]


@pytest.fixture
async def backends(redis_cluster: LocalCluster) -> AsyncIterator[BackendMaker]:
    maker = BackendMaker("cluster", redis_cluster.url)
    try:
        yield maker
    finally:
        await maker.close()


def test_the_fixed_room_ids_cross_every_shard(redis_cluster: LocalCluster) -> None:
    """The claim above, checked: the contract's room ids land on all three masters."""
    rooms = [f"room00{n:02d}" for n in range(1, 15)] + ["pub00001", "pub00002", "private1"]
    owners = {redis_cluster.node_for_key(f"{{{room}}}").port for room in rooms}
    assert owners == {node.port for node in redis_cluster.nodes}
