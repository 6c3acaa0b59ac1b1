"""Reading ``GET /metrics`` in tests: prometheus_client's own parser, samples by name and
labels, so a test compares numbers instead of matching text."""

from __future__ import annotations

import httpx
from prometheus_client.parser import text_string_to_metric_families

__all__ = ["Samples", "parse", "scrape", "value"]

Samples = dict[tuple[str, frozenset[tuple[str, str]]], float]
"""(sample name, its labels) -> value; e.g. ``("tictactoe_errors_total", {("code",
"occupied"), ("transport", "websocket")})``."""


def parse(text: str) -> Samples:
    return {
        (sample.name, frozenset(sample.labels.items())): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


async def scrape(base_url: str) -> Samples:
    """One scrape of ``base_url``/metrics (a new connection each time: with several
    workers, any of them may answer)."""
    async with httpx.AsyncClient() as http:
        response = await http.get(f"{base_url}/metrics", timeout=15)
    assert response.status_code == 200, response.text
    assert response.headers["content-type"].startswith("text/plain"), response.headers
    return parse(response.text)


def value(samples: Samples, name: str, **labels: str) -> float:
    """The sample's value, 0 when it is not there (a counter nobody incremented yet)."""
    return samples.get((name, frozenset(labels.items())), 0.0)
