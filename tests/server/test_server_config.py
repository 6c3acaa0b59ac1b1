"""Pure pieces of the server: settings, the token bucket, the Origin rule (no sockets)."""

from __future__ import annotations

from pathlib import Path

import pytest

from server import Settings, SettingsError
from server.guards.origin import normalize_origin, origin_allowed
from server.ws.limits import TokenBucket


def test_settings_defaults_and_url() -> None:
    settings = Settings()
    assert (settings.host, settings.port, settings.store_url) == ("127.0.0.1", 8000, "memory://")
    assert settings.url == "http://127.0.0.1:8000"
    assert Settings(host="0.0.0.0", port=9000).url == "http://127.0.0.1:9000"


def test_settings_from_environment() -> None:
    env = {
        "TICTACTOE_PORT": "9001",
        "TICTACTOE_RATE": "2.5",
        "TICTACTOE_ALLOWED_ORIGINS": "https://A.example.com/, http://b.example:8080",
        "TICTACTOE_STATIC_DIR": "/tmp/client",
        "REDIS_URL": "redis://cache:6379/0",
    }
    settings = Settings.from_env(env)
    assert settings.port == 9001 and settings.rate == 2.5
    assert settings.allowed_origins == ("https://a.example.com", "http://b.example:8080")
    assert settings.static_dir == Path("/tmp/client")
    assert settings.store_url == "redis://cache:6379/0"
    assert settings.with_changes(port=None, burst=3).burst == 3


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"port": 70000}, "port"),
        ({"port": -1}, "port"),
        ({"send_queue": 0}, "send_queue"),
        ({"rate": 0}, "rate"),
        ({"join_timeout": float("nan")}, "join_timeout"),
        ({"max_message_bytes": 50_000}, "max_message_bytes"),
        ({"allowed_origins": ("not an origin",)}, "allowed_origins"),
        ({"workers": True}, "workers"),
    ],
)
def test_bad_settings_name_the_field(changes: dict[str, object], field: str) -> None:
    with pytest.raises(SettingsError) as info:
        Settings(**changes)  # type: ignore[arg-type]
    assert info.value.field == field


def test_unreadable_environment_value_names_the_variable() -> None:
    with pytest.raises(SettingsError) as info:
        Settings.from_env({"TICTACTOE_PORT": "eighty"})
    assert info.value.field == "port" and "TICTACTOE_PORT" in str(info.value)


def test_token_bucket_allows_bursts_and_refills_with_time() -> None:
    bucket = TokenBucket(rate=2.0, burst=3, now=0.0)
    assert [bucket.take(0.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(0.4) is False  # 0.8 of a token
    assert bucket.take(0.5) is True  # 1.0
    assert [bucket.take(100.0) for _ in range(4)] == [True, True, True, False]  # capped at burst
    assert bucket.take(50.0) is False  # a clock going backwards refills nothing
    with pytest.raises(ValueError):
        TokenBucket(rate=0, burst=1, now=0.0)


@pytest.mark.parametrize(
    ("origin", "host", "allowed", "ok"),
    [
        (None, "example.com", (), True),
        ("http://127.0.0.1:8000", "127.0.0.1:8000", (), True),
        ("https://example.com", "example.com", (), True),
        ("https://example.com:443", "example.com", (), True),
        ("http://evil.example", "127.0.0.1:8000", (), False),
        ("http://127.0.0.1:9999", "127.0.0.1:8000", (), False),
        ("null", "127.0.0.1:8000", (), False),
        ("https://app.example.com", "api.example.com", ("https://app.example.com",), True),
        ("https://APP.example.com/", "api.example.com", ("https://app.example.com",), True),
        ("http://app.example.com", "api.example.com", ("https://app.example.com",), False),
        ("https://anything.example", "x", ("*",), True),
    ],
)
def test_origin_rule(origin: str | None, host: str, allowed: tuple[str, ...], ok: bool) -> None:
    assert origin_allowed(origin, host, allowed) is ok


def test_normalize_origin() -> None:
    assert normalize_origin("HTTP://Example.COM:80/") == "http://example.com"
    assert normalize_origin("http://[::1]:8000") == "http://[::1]:8000"
    with pytest.raises(ValueError):
        normalize_origin("example.com")


def test_token_redactor() -> None:
    import logging

    from websockets.frames import Frame, Opcode

    from server.logs.redact import TokenRedactor

    def record(msg: str, *args: object) -> logging.LogRecord:
        return logging.LogRecord("uvicorn.error", logging.DEBUG, __file__, 1, msg, args, None)

    secret = "Zx" * 21
    frame = Frame(Opcode.TEXT, f'{{"type":"join","token":"{secret}"}}'.encode())
    framed = record("< %s", frame)
    assert TokenRedactor().filter(framed)
    assert framed.getMessage() == f"< TEXT [{len(frame.data)} bytes]"
    said = record("got %s", f'{{"token": "{secret}", "as": "player"}}')
    TokenRedactor().filter(said)
    assert secret not in said.getMessage() and '"token": "***"' in said.getMessage()
    plain = record("%s joined", "Ada")
    TokenRedactor().filter(plain)
    assert plain.args == ("Ada",) and plain.getMessage() == "Ada joined"


@pytest.mark.parametrize(
    ("raw", "value"),
    [("0", False), ("false", False), ("No", False), ("off", False), ("1", True), ("TRUE", True)],
)
def test_the_fastpath_setting_reads_its_environment_variable(raw: str, value: bool) -> None:
    assert Settings().fastpath is True  # on by default
    assert Settings.from_env({"TICTACTOE_FASTPATH": raw}).fastpath is value


@pytest.mark.parametrize("raw", ["maybe", "2", "nope"])
def test_an_unreadable_yes_or_no_is_refused_not_taken_for_off(raw: str) -> None:
    with pytest.raises(SettingsError) as info:
        Settings.from_env({"TICTACTOE_FASTPATH": raw})
    assert info.value.field == "fastpath"
    assert "TICTACTOE_FASTPATH" in str(info.value) and "expected 1, true" in str(info.value)
    with pytest.raises(SettingsError) as info:
        Settings(fastpath=raw)  # type: ignore[arg-type]
    assert info.value.field == "fastpath"
