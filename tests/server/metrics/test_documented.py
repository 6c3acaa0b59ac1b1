"""Every metric the server exports has its row in docs/operations.md ("Metrics")."""

from __future__ import annotations

from pathlib import Path

from prometheus_client.metrics import MetricWrapperBase

from server.metrics import families

DOC = Path(__file__).resolve().parents[3] / "docs" / "operations.md"


def test_every_metric_is_in_the_operations_doc() -> None:
    defined = [value for value in vars(families).values() if isinstance(value, MetricWrapperBase)]
    defined += families.worker_process_gauges()
    assert len(defined) >= 20
    text = DOC.read_text()
    missing = []
    for metric in defined:
        name = metric._name  # prometheus_client keeps no public name
        shown = f"{name}_total" if metric._type == "counter" else name
        if f"| `{shown}` |" not in text:
            missing.append(shown)
    assert not missing, f"docs/operations.md has no row for {missing}"
