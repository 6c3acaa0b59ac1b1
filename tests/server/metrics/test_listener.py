"""``--metrics-address``: the address as written, and the listener that answers on it (a
real HTTP server on a loopback port, with and without a token)."""

from __future__ import annotations

import socket
from collections.abc import Iterator

import httpx
import pytest

from server.errors import SettingsError
from server.metrics import MetricsListener, authorized
from server.settings import Settings, metrics_address
from tests.support.scrape import parse


@pytest.mark.parametrize(
    ("text", "address"),
    [
        ("127.0.0.1:9100", ("127.0.0.1", 9100)),
        (":9100", ("0.0.0.0", 9100)),
        ("[::1]:9100", ("::1", 9100)),
        ("metrics.internal:1", ("metrics.internal", 1)),
    ],
)
def test_an_address_is_host_and_port(text: str, address: tuple[str, int]) -> None:
    assert metrics_address(text) == address
    assert Settings(metrics_address=text).metrics_address == text


@pytest.mark.parametrize("text", ["9100", "host:", "host:port", "host:0", "host:70000"])
def test_a_bad_address_names_the_setting(text: str) -> None:
    with pytest.raises(SettingsError) as caught:
        Settings(metrics_address=text)
    assert caught.value.field == "metrics_address"
    assert repr(text) in caught.value.reason


def test_the_token_is_a_bearer_token() -> None:
    assert authorized("", None)
    assert authorized("t0k", "Bearer t0k")
    assert authorized("t0k", "bearer t0k")
    assert not authorized("t0k", None)
    assert not authorized("t0k", "Bearer t0")
    assert not authorized("t0k", "Basic t0k")


@pytest.fixture
def listener() -> Iterator[MetricsListener]:
    started = MetricsListener(("127.0.0.1", 0), "t0k")
    started.start()
    try:
        yield started
    finally:
        started.close()


def test_the_listener_answers_metrics_only(listener: MetricsListener) -> None:
    base = f"http://127.0.0.1:{listener.port}"
    assert httpx.get(f"{base}/metrics", timeout=10).status_code == 401
    answer = httpx.get(f"{base}/metrics", headers={"Authorization": "Bearer t0k"}, timeout=10)
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("text/plain")
    names = {name for name, _ in parse(answer.text)}
    assert "python_info" in names  # this process' default registry
    other = httpx.get(f"{base}/", headers={"Authorization": "Bearer t0k"}, timeout=10)
    assert other.status_code == 404


def test_a_taken_address_fails_the_start(listener: MetricsListener) -> None:
    second = MetricsListener(("127.0.0.1", listener.port))
    with pytest.raises(OSError):
        second.start()


@pytest.mark.skipif(not socket.has_ipv6, reason="no IPv6 in this Python")
def test_the_listener_binds_ipv6() -> None:
    try:
        started = MetricsListener(("::1", 0))
        started.start()
    except OSError as exc:
        pytest.skip(f"no IPv6 loopback here: {exc}")
    try:
        answer = httpx.get(f"http://[::1]:{started.port}/metrics", timeout=10)
        assert answer.status_code == 200
    finally:
        started.close()
