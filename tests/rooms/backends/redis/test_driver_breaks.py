"""Redis failures seen during a cluster failover (bench.soak.cluster's faults found them) are
``unavailable``, to be retried, never an internal error: NOSCRIPT from a replica just
promoted, and redis-py's own connection code breaking on a connection closed under it. The
same exceptions raised outside the driver stay bugs."""

from __future__ import annotations

import pytest
from redis import exceptions as rx
from redis.asyncio.connection import Connection

from rooms import ErrorCode, RoomError
from rooms.backends.redis.connect import raise_typed


def _typed(exc: BaseException) -> RoomError:
    with pytest.raises(RoomError) as caught:
        raise_typed("commit", exc)
    return caught.value


def test_noscript_after_a_failover_is_unavailable() -> None:
    error = _typed(rx.NoScriptError("No matching script. Please use EVAL."))
    assert error.code is ErrorCode.UNAVAILABLE


async def test_the_driver_breaking_on_a_closed_connection_is_unavailable() -> None:
    connection = Connection()  # never connected: its writer is None, as after a disconnect
    try:
        await connection._send_packed_command([b"PING"])
    except AttributeError as exc:
        error = _typed(exc)
    assert error.code is ErrorCode.UNAVAILABLE
    assert "AttributeError" in error.message


def test_the_same_errors_outside_the_driver_are_not_hidden() -> None:
    try:
        None.writelines([])  # type: ignore[attr-defined]
    except AttributeError as exc:
        raise_typed("commit", exc)  # returns: the caller lets the bug go on
    raise_typed("commit", RuntimeError("ours"))
