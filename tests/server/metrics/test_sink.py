"""What rooms/ reports and the edge counts land in the right Prometheus families."""

from __future__ import annotations

from prometheus_client import REGISTRY

from rooms import ErrorCode
from rooms.common import metrics as rooms_metrics
from server.metrics import PrometheusSink, edge, flush_all, install_sink


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_every_report_of_rooms_lands_in_its_family() -> None:
    install_sink()
    assert isinstance(rooms_metrics.sink, PrometheusSink)
    sink = rooms_metrics.sink
    names = [
        ("tictactoe_commit_seconds_count", {}),
        ("tictactoe_redis_round_trip_seconds_count", {}),
        ("tictactoe_unavailable_total", {"operation": "commit"}),
        ("tictactoe_bus_reconnects_total", {}),
        ("tictactoe_resyncs_total", {"kind": "bus"}),
        ("tictactoe_lease_losses_total", {}),
    ]
    flush_all()  # what earlier tests in this process left buffered
    before = [sample(name, **labels) for name, labels in names]
    sink.commit(0.001)
    sink.redis_round_trip(0.0005)
    sink.unavailable("commit")
    sink.bus_reconnect()
    sink.resync("bus")
    sink.lease_lost()
    flush_all()  # commits and round trips are buffered (server.metrics.buffered)
    after = [sample(name, **labels) for name, labels in names]
    assert [b - a for a, b in zip(before, after, strict=True)] == [1.0] * len(names)
    sink.rooms(7)
    assert sample("tictactoe_rooms_active") == 7


def test_the_edge_counts() -> None:
    names = [
        ("tictactoe_errors_total", {"code": "occupied", "transport": "websocket"}),
        ("tictactoe_closes_total", {"code": "4009"}),
        ("tictactoe_closes_total", {"code": "peer"}),
        ("tictactoe_send_queue_drops_total", {}),
        ("tictactoe_collector_pause_seconds_count", {"kind": "full"}),
    ]
    before = [sample(name, **labels) for name, labels in names]
    edge.error(ErrorCode.OCCUPIED, "websocket")
    edge.closed(4009)
    edge.closed(None)
    edge.send_queue_drop()
    edge.collector_pause("full", 0.02)
    after = [sample(name, **labels) for name, labels in names]
    assert [b - a for a, b in zip(before, after, strict=True)] == [1.0] * len(names)
    players = sample("tictactoe_connections", role="player")
    edge.joined(True)
    assert sample("tictactoe_connections", role="player") == players + 1
    edge.left(True)
    assert sample("tictactoe_connections", role="player") == players
