"""The VAPID key (server.push.vapid): the one configured, else the one the store keeps, the
same for every worker on one Redis and through restarts; a malformed one stops the start."""

from __future__ import annotations

from collections.abc import Callable

import httpx
import pytest

from server import Settings, SettingsError
from server.push import VapidKey
from tests.support.backends import unique_prefix
from tests.support.live_server import LiveServer


async def public_key(live: LiveServer) -> str:
    async with httpx.AsyncClient(base_url=live.url) as http:
        answer = await http.get("/api/push/key")
    assert answer.status_code == 200, answer.text
    key: str = answer.json()["public_key"]
    return key


def test_a_key_round_trips_through_its_text() -> None:
    key = VapidKey.generate()
    again = VapidKey.parse(key.text)
    assert again.public_key == key.public_key and again.text == key.text
    assert key.text not in repr(key)


@pytest.mark.parametrize(
    ("text", "says"),
    [("not base64!", "base64url"), ("AAAA", "32 bytes"), ("A" * 43, "not a P-256 private key")],
)
def test_a_malformed_key_is_refused_naming_the_setting(text: str, says: str) -> None:
    with pytest.raises(SettingsError, match="push_vapid_key") as caught:
        Settings(push_vapid_key=text)
    assert says in str(caught.value)


@pytest.mark.parametrize("contact", ["ops@example.org", "http://example.org", "", "mailto:"])
def test_the_contact_is_a_mailto_or_https_url(contact: str) -> None:
    with pytest.raises(SettingsError, match="push_contact"):
        Settings(push_contact=contact)
    assert Settings(push_contact=" mailto:ops@example.org ").push_contact == (
        "mailto:ops@example.org"
    )


async def test_the_configured_key_is_the_one_published(
    make_server: Callable[..., LiveServer],
) -> None:
    key = VapidKey.generate()
    live = make_server(push_vapid_key=key.text, bot_pool="thread")
    assert await public_key(live) == key.public_key


async def test_workers_on_one_redis_share_the_first_key_through_restarts(
    make_server: Callable[..., LiveServer], redis_url: str
) -> None:
    url = f"{redis_url}?prefix={unique_prefix()}"
    first = make_server(store_url=url, bot_pool="thread")
    second = make_server(store_url=url, bot_pool="thread")
    key = await public_key(first)
    assert await public_key(second) == key
    first.stop()
    again = make_server(store_url=url, bot_pool="thread")
    assert await public_key(again) == key
