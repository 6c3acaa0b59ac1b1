"""The soak's verdict on one game: what the clients were told against what the store holds.

Pure: no I/O. The clients keep every ``move_ok`` they received (``Ack``) and every move the
server refused for good (``refused``); the record is the room's ``moves`` as the store has
them at the end. A move is

* **lost** when it was acknowledged and the record does not hold it;
* **doubled** when the record holds it more than once, or its ``move_id`` was acknowledged
  at two different versions (applied twice, each time answered as new);
* **phantom** when the server refused it for good (the client believes it was not played)
  and the record holds it anyway: the mover can no longer tell whether its move landed.

Any of the three fails the soak, as does a stuck game (one that did not finish in time).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

__all__ = ["Ack", "Cell", "Verdict", "judge"]

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
class Verdict:
    acknowledged: int
    """Distinct moves acknowledged."""
    lost: tuple[str, ...]
    """``move_id``s acknowledged but absent from the record."""
    doubled: tuple[str, ...]
    """``move_id``s applied more than once."""
    phantom: tuple[str, ...]
    """``move_id``s refused for good, yet in the record."""

    @property
    def clean(self) -> bool:
        return not (self.lost or self.doubled or self.phantom)


def judge(acks: Iterable[Ack], refused: Mapping[str, Cell], record: Iterable[Cell]) -> Verdict:
    """Check one game's acknowledgements and refusals against its final record."""
    in_record = Counter(record)
    versions: dict[str, set[int]] = {}
    cells: dict[str, Cell] = {}
    for ack in acks:
        versions.setdefault(ack.move_id, set()).add(ack.version)
        cells[ack.move_id] = ack.cell
    lost = tuple(sorted(move_id for move_id, cell in cells.items() if in_record[cell] == 0))
    doubled = tuple(
        sorted(
            move_id
            for move_id, cell in cells.items()
            if in_record[cell] > 1 or len(versions[move_id]) > 1
        )
    )
    phantom = tuple(
        sorted(
            move_id
            for move_id, cell in refused.items()
            if move_id not in cells and in_record[cell] > 0
        )
    )
    return Verdict(len(cells), lost, doubled, phantom)
