"""``tictactoe serve``'s checks that need no process: names in errors, unknown variables,
the new settings, and reaching the store."""

from __future__ import annotations

import argparse
import time

import pytest

from cli import build_parser
from cli.serve import register, settings_from_args
from server import Settings
from server.errors import SettingsError
from server.launch.checks import (
    StoreUnreachable,
    reach_store,
    setting_labels,
    unknown_variables,
)
from tests.support.redis_server import free_port


def _run(capsys: pytest.CaptureFixture[str], *flags: str) -> tuple[int, str]:
    """``tictactoe serve *flags`` in this process, for settings refused before it starts."""
    args = build_parser().parse_args(["serve", *flags])
    status = args.func(args)
    return status, capsys.readouterr().err


def test_every_setting_is_named_by_its_real_flag_and_variable() -> None:
    subparsers = argparse.ArgumentParser().add_subparsers()
    register(subparsers)
    serve = subparsers.choices["serve"]
    labels = setting_labels(serve)
    assert labels["port"] == "--port (TICTACTOE_PORT)"
    assert labels["store_url"] == "--redis-url (REDIS_URL, TICTACTOE_STORE_URL)"
    assert labels["tune_gc"] == "--no-tune-gc (TICTACTOE_TUNE_GC)"
    assert labels["log_level"] == "--log-level (TICTACTOE_LOG_LEVEL)"
    assert labels["wait_for_redis"] == "--wait-for-redis (TICTACTOE_WAIT_FOR_REDIS)"
    assert labels["bot_pool"] == "TICTACTOE_BOT_POOL"  # no flag: none is named
    shown = serve.format_help()
    for label in labels.values():
        flag = label.split(" ")[0]
        assert not flag.startswith("--") or flag in shown, flag


@pytest.mark.parametrize(
    ("env", "flags", "expected"),
    [
        ({}, ("--log-level", "verbose"), "--log-level (TICTACTOE_LOG_LEVEL): must be one of"),
        ({"TICTACTOE_LOG_LEVEL": "verbose"}, (), "--log-level (TICTACTOE_LOG_LEVEL)"),
        ({"TICTACTOE_LOG_FORMAT": "xml"}, (), "--log-format (TICTACTOE_LOG_FORMAT)"),
        ({"TICTACTOE_BOT_POOL": "gpu"}, (), 'TICTACTOE_BOT_POOL: must be "process" or "thread"'),
        ({}, ("--port", "70000"), "--port (TICTACTOE_PORT): must be at most 65535"),
        ({"TICTACTOE_WAIT_FOR_REDIS": "-1"}, (), "--wait-for-redis (TICTACTOE_WAIT_FOR_REDIS)"),
        ({"TICTACTOE_TUNE_GC": "maybe"}, (), "cannot read 'maybe' from TICTACTOE_TUNE_GC"),
    ],
)
def test_a_bad_setting_is_one_line_naming_its_flag_and_variable(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    env: dict[str, str],
    flags: tuple[str, ...],
    expected: str,
) -> None:
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    status, err = _run(capsys, *flags)
    assert status == 2
    assert err.startswith("tictactoe serve: error: ") and expected in err
    assert err.count("\n") == 1 and "--bot-pool" not in err


def test_log_and_wait_settings_come_from_flags_or_the_environment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def parsed(*flags: str) -> Settings:
        return settings_from_args(build_parser().parse_args(["serve", *flags]))

    default = parsed()
    assert (default.log_level, default.log_format, default.wait_for_redis) == ("info", "text", 0)
    monkeypatch.setenv("TICTACTOE_LOG_LEVEL", "DEBUG")
    monkeypatch.setenv("TICTACTOE_LOG_FORMAT", "json")
    monkeypatch.setenv("TICTACTOE_WAIT_FOR_REDIS", "2.5")
    env = parsed()
    assert (env.log_level, env.log_format, env.wait_for_redis) == ("debug", "json", 2.5)
    flags = parsed("--log-level", "error", "--log-format", "text", "--wait-for-redis", "7")
    assert (flags.log_level, flags.log_format, flags.wait_for_redis) == ("error", "text", 7)
    with pytest.raises(SettingsError, match="wait_for_redis"):
        Settings(wait_for_redis=float("nan"))


def test_unknown_variables_are_named_with_the_closest_valid_one() -> None:
    warnings = unknown_variables(
        {
            "TICTACTOE_TUNE_GCC": "1",
            "TICTACTOE_LOG_LEVL": "debug",
            "TICTACTOE_XYZZY": "1",
            "TICTACTOE_PORT": "8000",  # known
            "TICTACTOE_STORE_URL": "memory://",  # known
            "TICTACTOE_VENV": "/opt/venv",  # ./run's
            "PATH": "/bin",  # not ours
        }
    )
    assert warnings == [
        "ignoring the unknown environment variable TICTACTOE_LOG_LEVL; "
        "did you mean TICTACTOE_LOG_LEVEL?",
        "ignoring the unknown environment variable TICTACTOE_TUNE_GCC; "
        "did you mean TICTACTOE_TUNE_GC?",
        "ignoring the unknown environment variable TICTACTOE_XYZZY",
    ]


def test_the_memory_store_is_always_reachable() -> None:
    reach_store(Settings(), "memory://", wait=0)


def test_an_unreachable_store_fails_at_once_or_after_the_wait() -> None:
    url = f"redis://127.0.0.1:{free_port()}/0"  # nobody listens there
    with pytest.raises(StoreUnreachable, match=f"cannot reach the store {url}: "):
        reach_store(Settings(store_url=url), url, wait=0)
    began = time.monotonic()
    with pytest.raises(StoreUnreachable, match=r"after 0\.5s"):
        reach_store(Settings(store_url=url), url, wait=0.5)
    assert time.monotonic() - began >= 0.5
