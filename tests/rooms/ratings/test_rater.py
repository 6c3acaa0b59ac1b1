"""The rater on real backends (memory, a real Redis, a real Redis Cluster): a rated game's
end is applied by the worker that committed it, or by any worker that sees the room later
(after the first one died between applying and recording it), and ratings change once."""

from __future__ import annotations

from typing import Any

from rooms import Backend, Rater, Role, RoomService, Watch
from rooms.room import Join, Resign
from rooms.room.config import RoomSettings
from tests.support.waiting import eventually

POOL = "classic.untimed"


async def rated_game_over(service: RoomService, players: list[str]) -> str:
    """A rated room whose game X (``players[0]``) won by resignation; its id."""
    room = await service.create({}, public=False, settings=RoomSettings(pool=POOL))
    for i, player in enumerate(players):
        await service.execute(room.room_id, Join(f"c{i}", Role.PLAYER, f"P{i}", player_id=player))
    await service.execute(room.room_id, Resign("c1"))
    return room.room_id


async def test_the_worker_that_ends_the_game_applies_it(backend: Backend) -> None:
    service = RoomService(backend.store)
    rater = Rater(service, backend.ratings)
    players = [(await backend.players.create(n))[0].player_id for n in ("Ada", "Bob")]
    try:
        room_id = await rated_game_over(service, players)
        change = await eventually(
            lambda: _applied(service, room_id), "the rated event to be committed"
        )
        assert change["X"]["player_id"] == players[0] and change["X"]["after"] > 1500
        assert change["O"]["after"] < 1500 and change["O"]["provisional"] is True
        ada = await backend.ratings.standing(POOL, players[0])
        assert (
            ada is not None
            and ada.games == 1
            and round(ada.rating.rating, 1) == change["X"]["after"]
        )
        assert rater.applied == 1
    finally:
        await rater.close()


async def test_a_worker_that_died_after_applying_is_replaced_without_a_second_change(
    backend: Backend,
) -> None:
    first = RoomService(backend.store)  # commits the end, then "dies": no rater of its own
    players = [(await backend.players.create(n))[0].player_id for n in ("Ada", "Bob")]
    room_id = await rated_game_over(first, players)
    room = await first.load(room_id)
    assert len(room.rating_pending) == 1 and room.due() is not None
    change = await backend.ratings.apply(room.rating_pending[0], room_id)  # applied, not recorded
    # another worker: its watch's timer sees the room due and loads it; its rater applies again
    second = RoomService(backend.store)
    watch, rater = Watch(second), Rater(second, backend.ratings)
    try:
        watch.noted(room_id, room.due())
        done = await eventually(lambda: _applied(second, room_id), "the rated event")
        assert done == change  # the change the marker recorded
        ada = await backend.ratings.standing(POOL, players[0])
        assert ada is not None and ada.games == 1  # once, not twice
        assert len(await backend.ratings.history(POOL, players[0])) == 1
    finally:
        await rater.close()
        await watch.close()


async def _applied(service: RoomService, room_id: str) -> dict[str, Any] | None:
    """The rating change the room recorded, once its pending entry is gone (else None)."""
    room = await service.load(room_id)
    if room.rating_change is None or room.rating_pending:
        return None
    change: dict[str, Any] = room.rating_change["rating_change"]
    return change
