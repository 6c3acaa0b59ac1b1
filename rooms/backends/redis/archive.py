"""How the Redis store keeps a room's text: its JSON object and its archive in two fields.

A room text (rooms.protocol.codec) is the room's JSON object, then, after the first newline, the
archive of its earlier games, which changes only when a new game starts. The room's hash keeps
them apart, ``d`` (the object) and ``g`` (the archive; absent when empty), so a commit that
leaves the archive unchanged, nearly every commit of a rematch series, neither sends, stores nor
publishes it (``scripts``, ``framed_head``). Outside the Redis store the text is always whole:
``load`` and a refused swap join the fields (``whole``); the lobby reads ``d`` alone. A ``d``
holding a newline is a text written whole (by ``create`` or an older worker) and any ``g``
beside it is stale; the first commit that keeps the archive moves it into ``g``.
"""

from __future__ import annotations

from rooms.backends.redis.connect import text
from rooms.protocol.codec import game_number_of

__all__ = ["commit_parts", "whole"]


def commit_parts(data: str, archive_unchanged: bool) -> tuple[str, str, bytes]:
    """``(head, archive, keep)``: the commit script's ``d``, its ``g`` to write (``""``:
    none) and ``keep``, the game number that names the stored archive when the caller
    vouches that it is unchanged (``b""``: write ``archive``).

    The archive is kept only when its game number can be read off the room's object
    (rooms.protocol.codec.game_number_of): the bus message that leaves the archive out is tagged
    with it, so a worker adds the archive back only to a copy of the same game's room."""
    cut = data.find("\n")
    if cut < 0:
        return data, "", b""
    if archive_unchanged:
        game_number = game_number_of(data)
        if game_number is not None:
            return data[:cut], "", b"%d" % game_number
    return data[:cut], data[cut + 1 :], b""


def whole(head: bytes | str, archive: bytes | str | None) -> str:
    """The room text of the fields ``d`` and ``g`` as read from the hash."""
    room = text(head)
    if archive is None or "\n" in room:  # written whole: its own archive wins
        return room
    return f"{room}\n{text(archive)}"
