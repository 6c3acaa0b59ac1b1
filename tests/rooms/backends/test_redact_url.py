"""``redact_url``: a store URL printed in a log or an error line shows no secret."""

from __future__ import annotations

import pytest

from rooms import redact_url


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("redis://cache:6379/0", "redis://cache:6379/0"),
        ("redis://:hunter2@cache:6379/0", "redis://:***@cache:6379/0"),
        ("redis://ada:hunter2@cache/0?prefix=t", "redis://ada:***@cache/0?prefix=t"),
        (
            "redis+sentinel://ada:pw@s1:26379,s2:26379/svc/0?sentinel_password=SECRET&prefix=t",
            "redis+sentinel://ada:***@s1:26379,s2:26379/svc/0?sentinel_password=***&prefix=t",
        ),
        (
            "redis+sentinel://s1:26379/svc/0?prefix=t&sentinel_username=u&SENTINEL_PASSWORD=x",
            "redis+sentinel://s1:26379/svc/0?prefix=t&sentinel_username=u&SENTINEL_PASSWORD=***",
        ),
        (
            "rediss://cache/0?password=p%40ss&ssl_cert_reqs=none",
            "rediss://cache/0?password=***&ssl_cert_reqs=none",
        ),
        ("memory://", "memory://"),
    ],
)
def test_no_secret_is_shown(url: str, shown: str) -> None:
    assert redact_url(url) == shown
