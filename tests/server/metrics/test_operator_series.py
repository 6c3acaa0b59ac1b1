"""What an operator's Prometheus reads besides the game counts: ``tictactoe_build_info``,
HTTP requests by route template and status, and each worker's own process series (memory,
descriptors, CPU), with ``tictactoe serve --workers 2`` on Redis; and ``/metrics`` kept off
the public port (``--metrics-address``) or behind a bearer token (``--metrics-token``)."""

from __future__ import annotations

import platform

import httpx

from server.metrics import version
from tests.support.redis_server import free_port
from tests.support.scrape import Samples, parse, scrape, value
from tests.support.server_process import Fleet
from tests.support.waiting import eventually

from .test_workers import stats_of_both

TOKEN = "s3cret-scrape-token-for-tests"


def pids_with(samples: Samples, name: str) -> dict[int, float]:
    """A liveall gauge's value for each worker, by its pid label."""
    return {
        int(dict(labels)["pid"]): found
        for (sample, labels), found in samples.items()
        if sample == name and "pid" in dict(labels)
    }


async def test_two_workers_show_build_info_http_and_each_workers_process_series(
    redis_url: str, fleet: Fleet
) -> None:
    (serve,) = fleet.start(redis_url, 1, "--workers", "2")
    workers = set(await stats_of_both(serve))
    async with httpx.AsyncClient() as http:
        for _ in range(4):  # new connections: both workers may answer some
            assert (await http.get(f"{serve.url}/api/rooms", timeout=10)).status_code == 200
        missing = await http.get(f"{serve.url}/api/rooms/nosuchroom1", timeout=10)
        assert missing.status_code == 404

    async def both_workers_sampled() -> Samples | None:
        samples = await scrape(serve.url)
        memory = pids_with(samples, "tictactoe_worker_resident_memory_bytes")
        return samples if set(memory) >= workers else None

    samples = await eventually(both_workers_sampled, "both workers' process series")
    memory = pids_with(samples, "tictactoe_worker_resident_memory_bytes")
    fds = pids_with(samples, "tictactoe_worker_open_fds")
    cpu = pids_with(samples, "tictactoe_worker_cpu_seconds")
    assert set(memory) == set(fds) == set(cpu) == workers  # only live workers, each its own
    assert all(10 * 2**20 < rss < 2**31 for rss in memory.values()), memory
    assert all(fd >= 5 for fd in fds.values()), fds  # the listening socket, Redis, pipes...
    assert all(seconds > 0 for seconds in cpu.values()), cpu
    assert (
        value(
            samples,
            "tictactoe_build_info",
            version=version(),
            python=platform.python_version(),
            store="redis",
        )
        == 1
    )
    # by template, summed over both workers; the raw path is never a label
    found = value(
        samples, "tictactoe_http_requests_total", method="GET", route="/api/rooms", status="200"
    )
    assert found >= 4
    assert (
        value(
            samples,
            "tictactoe_http_requests_total",
            method="GET",
            route="/api/rooms/{room_id}",
            status="404",
        )
        == 1
    )
    assert (
        value(
            samples,
            "tictactoe_http_request_duration_seconds_count",
            method="GET",
            route="/api/rooms",
            status="200",
        )
        == found
    )
    assert not any("nosuchroom1" in str(labels) for _, labels in samples)


async def test_metrics_on_their_own_address_with_a_token(redis_url: str, fleet: Fleet) -> None:
    port = free_port()
    serve = fleet.launch(
        "--workers",
        "2",
        "--metrics-address",
        f"127.0.0.1:{port}",
        store_url=redis_url,
        env={"TICTACTOE_METRICS_TOKEN": TOKEN},
    )
    serve.wait_ready()
    workers = set(await stats_of_both(serve))
    own = f"http://127.0.0.1:{port}/metrics"
    async with httpx.AsyncClient() as http:
        public = await http.get(f"{serve.url}/metrics", timeout=10)
        assert public.status_code == 404  # not on the app's port, whichever worker answers
        refused = await http.get(own, timeout=10)
        assert refused.status_code == 401
        assert refused.headers["www-authenticate"].startswith("Bearer")
        wrong = await http.get(own, headers={"Authorization": "Bearer nope"}, timeout=10)
        assert wrong.status_code == 401

        async def both() -> Samples | None:
            answer = await http.get(own, headers={"Authorization": f"Bearer {TOKEN}"})
            assert answer.status_code == 200, answer.text
            samples = parse(answer.text)
            found = pids_with(samples, "tictactoe_worker_open_fds")
            return samples if set(found) == workers else None

        samples = await eventually(both, "both workers' series on the metrics address")
    assert value(samples, "tictactoe_build_info", **_build("redis")) == 1


async def test_the_token_guards_metrics_on_the_apps_port(fleet: Fleet) -> None:
    serve = fleet.launch(env={"TICTACTOE_METRICS_TOKEN": TOKEN})
    serve.wait_ready()
    async with httpx.AsyncClient() as http:
        assert (await http.get(f"{serve.url}/metrics", timeout=10)).status_code == 401
        answer = await http.get(
            f"{serve.url}/metrics", headers={"Authorization": f"Bearer {TOKEN}"}, timeout=10
        )
    assert answer.status_code == 200
    samples = parse(answer.text)
    assert value(samples, "tictactoe_build_info", **_build("memory")) == 1
    assert value(samples, "tictactoe_worker_resident_memory_bytes") > 10 * 2**20
    assert (
        value(
            samples, "tictactoe_http_requests_total", method="GET", route="/metrics", status="401"
        )
        == 1
    )


def _build(store: str) -> dict[str, str]:
    return {"version": version(), "python": platform.python_version(), "store": store}
