"""The soak's verdict on one game: what the clients were told against what the store holds.

Pure: no I/O. The clients keep every ``move_ok`` they received (``Ack``, in the order the
game received them) and every move the server refused for good (``refused``); the record
(``StoredGame``) is the room's game as the store has it at the end: its moves in play order,
the version each ``move_id`` landed at (the seats' idempotency maps, docs/protocol.md
"move") and whether the game is over. An acknowledged move is

* **lost** when the record does not hold it;
* **doubled** when the record holds it more than once, or its ``move_id`` was acknowledged
  at two different versions (applied twice, each time answered as new);
* **reordered** when the record holds the acknowledged moves in another order than they
  were acknowledged in;
* at a **wrong version** when the store holds its ``move_id`` at another version than its
  ``move_ok`` said, holds no such ``move_id``, or when the versions acknowledged do not grow
  move after move;

a move refused for good is a **phantom** when the record holds it anyway (the mover can no
longer tell whether its move landed); and the game is **unfinished** when the store does not
hold it as over. Each problem gets a message of its own, naming the ``move_id``.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

__all__ = ["Ack", "Cell", "StoredGame", "Verdict", "judge"]

Cell = tuple[str, int, int]
"""A move as the record shows it: ``(mark, row, col)``."""


@dataclass(frozen=True, slots=True)
class Ack:
    """One ``move_ok`` a mover received (a retry's ``duplicate`` answer is another one)."""

    move_id: str
    cell: Cell
    version: int
    duplicate: bool


@dataclass(frozen=True, slots=True)
class StoredGame:
    """A room's current game as the store holds it."""

    cells: tuple[Cell, ...]
    """Its moves in play order."""
    versions: Mapping[str, int] | None
    """Each ``move_id`` the seats played and the version it landed at; None when only the
    public snapshot could be read (``--target`` without ``--redis-url``): versions are then
    compared between acknowledgements only."""
    status: str
    """``waiting``, ``playing`` or ``finished``."""

    @property
    def finished(self) -> bool:
        return self.status == "finished"


@dataclass(frozen=True, slots=True)
class Verdict:
    acknowledged: int
    """Distinct moves acknowledged (each compared with the record)."""
    versions_compared: int
    """Acknowledged moves whose version was compared with the store's."""
    lost: tuple[str, ...] = ()
    doubled: tuple[str, ...] = ()
    reordered: tuple[str, ...] = ()
    wrong_version: tuple[str, ...] = ()
    phantom: tuple[str, ...] = ()
    unfinished: bool = False
    problems: tuple[str, ...] = field(default=())
    """One line per problem found, in the order above."""

    @property
    def clean(self) -> bool:
        return not self.problems


def judge(acks: Iterable[Ack], refused: Mapping[str, Cell], record: StoredGame) -> Verdict:
    """Check one game's acknowledgements and refusals against its final record."""
    first: dict[str, Ack] = {}
    acked_versions: dict[str, set[int]] = {}
    for ack in acks:
        first.setdefault(ack.move_id, ack)
        acked_versions.setdefault(ack.move_id, set()).add(ack.version)
    counts = Counter(record.cells)
    problems: list[str] = []

    lost = [m for m, a in first.items() if counts[a.cell] == 0]
    for m in lost:
        a = first[m]
        problems.append(
            f"lost: {m} {_cell(a.cell)} was acknowledged at version {a.version} "
            "but the record does not hold it"
        )

    doubled = []
    for m, a in first.items():
        if counts[a.cell] > 1:
            doubled.append(m)
            problems.append(f"doubled: {m} {_cell(a.cell)} is in the record {counts[a.cell]} times")
        elif len(acked_versions[m]) > 1:
            doubled.append(m)
            versions = ", ".join(str(v) for v in sorted(acked_versions[m]))
            problems.append(f"doubled: {m} was acknowledged at versions {versions}")

    # The record's order of the acknowledged moves it holds once, against the acks' order.
    ply = {cell: index for index, cell in enumerate(record.cells)}
    held = [a for a in first.values() if counts[a.cell] == 1]
    in_record_order = sorted(held, key=lambda a: ply[a.cell])
    reordered = []
    for rank, (acked, recorded) in enumerate(zip(held, in_record_order, strict=True), 1):
        if acked is not recorded:
            reordered.append(acked.move_id)
            problems.append(
                f"reordered: {acked.move_id} was the {_nth(rank)} move acknowledged "
                f"but is ply {ply[acked.cell] + 1} of the record"
            )

    wrong_version = []
    compared = 0
    previous: Ack | None = None
    for m, a in first.items():
        if previous is not None and a.version <= previous.version:
            wrong_version.append(m)
            problems.append(
                f"wrong version: {m} was acknowledged at version {a.version}, not after "
                f"{previous.move_id}'s {previous.version}"
            )
        previous = a
        if record.versions is None or counts[a.cell] == 0:
            continue  # nothing to compare: no versions read, or lost already
        compared += 1
        stored = record.versions.get(m)
        if stored is None:
            wrong_version.append(m)
            problems.append(
                f"wrong version: {m} was acknowledged at version {a.version} "
                "but the store holds no move of that move_id"
            )
        elif stored != a.version:
            wrong_version.append(m)
            problems.append(
                f"wrong version: {m} was acknowledged at version {a.version} "
                f"but the store holds it at version {stored}"
            )

    phantom = sorted(m for m, cell in refused.items() if m not in first and counts[cell] > 0)
    for m in phantom:
        problems.append(
            f"phantom: {m} {_cell(refused[m])} was refused for good but the record holds it"
        )

    unfinished = not record.finished
    if unfinished:
        problems.append(
            f"unfinished: the stored game is {record.status} after {len(record.cells)} moves"
        )
    return Verdict(
        len(first),
        compared,
        tuple(lost),
        tuple(doubled),
        tuple(reordered),
        tuple(dict.fromkeys(wrong_version)),
        tuple(phantom),
        unfinished,
        tuple(problems),
    )


def _cell(cell: Cell) -> str:
    mark, row, col = cell
    return f"{mark} r{row}c{col}"


def _nth(rank: int) -> str:
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"
