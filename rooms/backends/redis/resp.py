"""Commands in the Redis protocol (RESP), packed for the auto-pipeline and the bus.

The same bytes as redis-py's ``pack_commands``, byte for byte (a test holds it against
redis-py's output), for less CPU: redis-py builds each argument's header out of small byte
strings joined in several steps and cuts large values into chunks of their own, machinery
a room's commit (a dozen arguments, a room text of a kilobyte or two) does not need. Here
headers are formatted once and a batch is one join; arguments are encoded exactly as
redis-py's ``Encoder`` encodes them. With ``RedisOptions.auto_pipeline`` off, redis-py's
own packer is used instead.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from redis.exceptions import DataError

__all__ = ["Arg", "pack_commands"]

Arg = str | int | float | bytes

_HEADS = [b"$%d\r\n" % length for length in range(1024)]
"""Bulk string headers of the usual lengths, formatted once (a third of the packing)."""


def pack_commands(
    commands: Iterable[Sequence[Arg]], encoding: str = "utf-8", errors: str = "strict"
) -> bytes:
    """The RESP bytes of ``commands``, sent in order: what redis-py's ``pack_commands``
    sends, joined. A first argument with spaces is several words ("SCRIPT LOAD"), as
    redis-py splits it; a bool, or a value of another type, raises redis-py's DataError."""
    parts: list[bytes] = []
    append = parts.append
    for command in commands:
        args: Sequence[Arg] = command
        first = args[0]
        if isinstance(first, str):
            if not first.isalpha():  # a plain name ("EVALSHA") needs no split
                args = (*first.encode().split(), *args[1:])
        elif isinstance(first, bytes) and b" " in first:
            args = (*first.split(), *args[1:])
        append(b"*%d\r\n" % len(args))
        for arg in args:
            kind = type(arg)
            if kind is str:
                data = arg.encode(encoding, errors)  # type: ignore[union-attr]
            elif kind is bytes:
                data = arg
            elif kind is int or kind is float:
                data = repr(arg).encode()
            else:
                data = _encode(arg, encoding, errors)
            length = len(data)
            append(_HEADS[length] if length < 1024 else b"$%d\r\n" % length)
            append(data)
            append(b"\r\n")
    return b"".join(parts)


def _encode(value: object, encoding: str, errors: str) -> bytes:
    """The slow path, for subclasses and other types, in redis-py's ``Encoder`` order."""
    if isinstance(value, bytes | bytearray | memoryview):
        return bytes(value)
    if isinstance(value, bool):
        raise DataError(
            "Invalid input of type: 'bool'. Convert to a bytes, string, int or float first."
        )
    if isinstance(value, int | float):
        return repr(value).encode()
    if isinstance(value, str):
        return value.encode(encoding, errors)
    raise DataError(
        f"Invalid input of type: '{type(value).__name__}'. "
        "Convert to a bytes, string, int or float first."
    )
