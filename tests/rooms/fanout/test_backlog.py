"""What a room's listeners are still owed (rooms.fanout.backlog), pure: whatever the mix of
events, loop turns and listeners coming, going or reordered, every listener gets each event
owed to it once, in the order they came; one owed several gets them in one hand-over.

The room here plays the hub's part as the hub does it (rooms.fanout.hub): each event is handed
at once to the first slice of the order when nothing is owed, else to the players only, and
the rest is owed; a loop turn takes one slice. The slice is small, so a few listeners make
several slices."""

from __future__ import annotations

from collections import defaultdict

from hypothesis import given, settings
from hypothesis import strategies as st

from rooms.fanout.backlog import Backlog, Event

SLICE = 3


class Room:
    """A room's listeners (names, the players first) and what each was handed, by whom."""

    def __init__(self, players: int, spectators: int) -> None:
        self.players = players
        self.order = tuple(
            [f"player{i}" for i in range(players)] + [f"watcher{i}" for i in range(spectators)]
        )
        self.backlog: Backlog[str] = Backlog()
        self.version = 0
        self.handed: dict[str, list[list[int]]] = defaultdict(list)
        """Each listener's hand-overs, the versions of each."""
        self.owed_from = dict.fromkeys(self.order, 1)
        """The first version each listener is owed: the next one when it came."""
        self.owed_until: dict[str, int] = {}
        """The last version each listener that went is owed: the last before it went."""
        self.came = len(self.order)

    def event(self) -> None:
        self.version += 1
        event = (self.version, f'{{"version":{self.version}}}')
        served = self.players if self.backlog else SLICE
        self._hand(self.order[:served], [event])
        self.backlog.owe(self.order, event, served)

    def turn(self) -> None:
        budget = SLICE
        while self.backlog and budget > 0:
            listeners, events = self.backlog.take(budget)
            assert 0 < len(listeners) <= budget
            assert events and [v for v, _ in events] == sorted({v for v, _ in events})
            budget -= len(listeners)
            self._hand(listeners, events)

    def attach(self, where: int) -> None:
        """A spectator comes: a new order, with it somewhere among the spectators."""
        name = f"late{self.came}"
        self.came += 1
        spectators = list(self.order[self.players :])
        spectators.insert(where % (len(spectators) + 1), name)
        self.order = (*self.order[: self.players], *spectators)
        self.owed_from[name] = self.version + 1

    def detach(self, which: int) -> None:
        spectators = list(self.order[self.players :])
        if spectators:
            gone = spectators.pop(which % len(spectators))
            self.order = (*self.order[: self.players], *spectators)
            self.owed_until[gone] = self.version

    def reorder(self, seed: int) -> None:
        """The same listeners in a new order (the hub makes one when a listener joins): the
        spectators rotated, the players first still."""
        spectators = self.order[self.players :]
        cut = seed % (len(spectators) or 1)
        self.order = (*self.order[: self.players], *spectators[cut:], *spectators[:cut])

    def drain(self) -> None:
        for _ in range(10_000):
            if not self.backlog:
                return
            self.turn()
        raise AssertionError("the backlog never emptied")

    def versions(self, name: str) -> list[int]:
        return [version for handed in self.handed[name] for version in handed]

    def _hand(self, listeners: tuple[str, ...], events: list[Event]) -> None:
        for name in listeners:
            assert all(text == f'{{"version":{v}}}' for v, text in events)
            self.handed[name].append([version for version, _ in events])


_STEP = st.tuples(
    st.sampled_from(["event", "event", "turn", "turn", "attach", "detach", "reorder"]),
    st.integers(0, 1_000),
)


@settings(max_examples=300, deadline=None)
@given(
    players=st.integers(0, 2),
    spectators=st.integers(0, 4 * SLICE),
    steps=st.lists(_STEP, max_size=60),
)
def test_any_mix_of_events_turns_and_orders_gives_each_listener_its_events_in_order_once(
    players: int, spectators: int, steps: list[tuple[str, int]]
) -> None:
    room = Room(players, spectators)
    for step, number in steps:
        if step == "event":
            room.event()
        elif step == "turn":
            room.turn()
        elif step == "attach":
            room.attach(number)
        elif step == "detach":
            room.detach(number)
        else:
            room.reorder(number)
    room.drain()
    for name, first in room.owed_from.items():
        last = room.owed_until.get(name, room.version)
        assert room.versions(name) == list(range(first, last + 1)), name


def test_events_that_come_before_a_slice_is_out_are_handed_over_together() -> None:
    """A game's last move, the rematch offer and the new game, one after the other before
    the first turn: the listeners not served at once get the three in one hand-over; the
    one of the first slice that is not a player gets the two it missed in one."""
    room = Room(2, 3 * SLICE)
    for _ in range(3):
        room.event()
    room.drain()
    assert room.handed["player0"] == room.handed["player1"] == [[1], [2], [3]]
    assert room.handed["watcher0"] == [[1], [2, 3]]
    assert all(room.handed[f"watcher{i}"] == [[1, 2, 3]] for i in range(1, 3 * SLICE))


def test_an_event_that_comes_mid_fan_out_is_owed_with_the_rest() -> None:
    """Those already handed the first event get the second alone; the rest get both at once,
    and before anyone is handed the second alone (the oldest event first)."""
    room = Room(0, 4 * SLICE)
    room.event()  # the first slice at once
    room.turn()  # the second slice
    room.event()
    room.drain()
    first_two_slices = [f"watcher{i}" for i in range(2 * SLICE)]
    rest = [f"watcher{i}" for i in range(2 * SLICE, 4 * SLICE)]
    assert all(room.handed[name] == [[1], [2]] for name in first_two_slices)
    assert all(room.handed[name] == [[1, 2]] for name in rest)


def test_a_new_order_is_served_after_what_the_old_one_is_owed() -> None:
    """A spectator that comes mid fan-out is owed only what came after it, and gets it
    after everyone of the old order had the earlier event."""
    room = Room(2, 3 * SLICE)
    room.event()
    room.attach(0)
    room.event()  # behind the backlog: the players at once, everyone else owed
    room.turn()
    assert room.handed["late11"] == []  # the old order's event first, a slice per turn
    room.drain()
    assert room.handed["late11"] == [[2]]
    assert room.versions("watcher8") == [1, 2]
    assert not room.backlog
