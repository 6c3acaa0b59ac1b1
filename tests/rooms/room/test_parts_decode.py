"""Seats and offers read back from their stored dicts: a record this code wrote is copied
as it is, anything else converted exactly as before (``str``/``int``/``float`` per item),
and what cannot be converted is refused with the same error."""

from __future__ import annotations

from typing import Any

import pytest

from rooms.room.pending import Offers
from rooms.room.seats import Seat


def converted_offers(data: dict[str, Any]) -> Offers:
    """What ``Offers.from_dict`` built before its fast paths, item by item."""
    draw, takeback = data.get("draw"), data.get("takeback")
    return Offers(
        draw=str(draw) if draw is not None else None,
        draw_moves={str(k): int(v) for k, v in data.get("draw_moves", {}).items()},
        takeback=str(takeback) if takeback is not None else None,
        takeback_declines={str(k): int(v) for k, v in data.get("takeback_declines", {}).items()},
        takeback_not_before={
            str(k): float(v) for k, v in data.get("takeback_not_before", {}).items()
        },
        rematch=[str(m) for m in data.get("rematch", [])],
    )


def typed(value: Any) -> Any:
    """``value`` with the type of every part, so that ``1`` and ``True`` compare unequal."""
    if isinstance(value, dict):
        return {k: typed(v) for k, v in value.items()}
    if isinstance(value, list):
        return [typed(v) for v in value]
    return (type(value), value)


@pytest.mark.parametrize(
    "data",
    [
        {},
        Offers().to_dict(),
        Offers("X", {"X": 2}, "O", {"O": 1}, {"O": 130.5}, ["X"]).to_dict(),
        {"draw_moves": {"X": True}, "takeback_declines": {"O": 2, "X": False}},
        {"takeback_not_before": {"O": 130}, "rematch": ["X", "O"]},
        {"takeback_not_before": {"O": True, "X": 1.5}},
        {"rematch": "XO"},
        {"draw": 1, "takeback": 0.5},
    ],
)
def test_offers_read_back_as_item_by_item(data: dict[str, Any]) -> None:
    built = Offers.from_dict(data)
    assert typed(built.to_dict()) == typed(converted_offers(data).to_dict())
    assert built.rematch is not data.get("rematch")  # never shared with the record
    assert built.draw_moves is not data.get("draw_moves")


@pytest.mark.parametrize(
    "data",
    [
        {"draw_moves": {"X": "x"}},
        {"draw_moves": []},
        {"rematch": 3},
        {"takeback_declines": None},
        {"takeback_not_before": {"O": [1]}},
    ],
)
def test_offers_that_cannot_be_read_are_refused_as_before(data: dict[str, Any]) -> None:
    with pytest.raises(Exception) as before:
        converted_offers(data)
    with pytest.raises(type(before.value)) as now:
        Offers.from_dict(data)
    assert str(now.value) == str(before.value)


def converted_seat(data: dict[str, Any]) -> Seat:
    """What ``Seat.from_dict`` built before its fast paths, item by item."""
    away, bot = data.get("away_since"), data.get("bot")
    return Seat(
        mark=str(data["mark"]),
        name=str(data["name"]),
        token_hash=str(data["token_hash"]),
        connections=[str(c) for c in data["connections"]],
        moves={str(k): int(v) for k, v in data["moves"].items()},
        bot=str(bot) if bot is not None else None,
        away_since=float(away) if away is not None else None,
        left=bool(data.get("left", False)),
        wins=int(data.get("wins", 0)),
        draws=int(data.get("draws", 0)),
    )


def seat(**changes: Any) -> dict[str, Any]:
    data = Seat("X", "Ann", "ab" * 32, ["c1", "c2"], {"m1": 3}, None, None).to_dict()
    data.update(changes)
    return data


@pytest.mark.parametrize(
    "data",
    [
        seat(),
        seat(connections=[]),
        seat(connections=[1, "c"]),
        seat(connections="cd"),
        seat(connections={"c": 1}),
        seat(bot="easy", away_since=5, left=1, wins=True),
    ],
)
def test_seats_read_back_as_item_by_item(data: dict[str, Any]) -> None:
    built = Seat.from_dict(data)
    assert typed(built.to_dict()) == typed(converted_seat(data).to_dict())
    assert built.connections is not data["connections"]  # never shared with the record
    assert built.moves is not data["moves"]


def test_a_seat_whose_connections_cannot_be_read_is_refused() -> None:
    with pytest.raises(TypeError):
        Seat.from_dict(seat(connections=7))
