"""Error reports to Sentry: every ERROR log line with its traceback (an internal error
while handling a message, an exception that escaped a request), tagged with the release.

The SDK's logging integration does the catching, so nothing is wrapped: whatever the
server logs at ERROR, Sentry gets, and lower levels become breadcrumbs of the next report.
Its auto-enabled framework integrations are off (they would patch Starlette after the app
is built); no personal data is sent (``send_default_pii`` off: no client addresses, no
cookies). ``SENTRY_ENVIRONMENT`` and the SDK's other variables still apply.
"""

from __future__ import annotations

__all__ = ["release", "start", "stop"]


def release(version: str) -> str:
    """The release a report is tagged with (``tictactoe-server@0.1.0``)."""
    return f"tictactoe-server@{version}"


def start(dsn: str, version: str, store: str) -> None:
    import sentry_sdk

    sentry_sdk.init(
        dsn=dsn,
        release=release(version),
        auto_enabling_integrations=False,
        send_default_pii=False,
    )
    # the global scope: every request and socket task reports it, not only this one
    sentry_sdk.get_global_scope().set_tag("store", store)


def stop() -> None:
    """Send the reports still queued (2 s at most) and stop reporting."""
    import sentry_sdk

    client = sentry_sdk.get_client()
    if client.is_active():
        client.close(timeout=2.0)
