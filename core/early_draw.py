"""Early draw: know, incrementally, when no k-window can still be completed by anyone.

A window is alive while at most one player has marks in it. Each move touches only the
windows through its cell (O(k) per direction), so no board rescan is ever needed.
"""

from __future__ import annotations

from .geometry import Geometry

__all__ = ["LiveWindows"]


class LiveWindows:
    def __init__(self, geo: Geometry, players: int) -> None:
        self._stride = players + 1
        self._windows_of_cell = geo.windows_by_cell()
        self._counts = [0] * (len(geo.windows) * self._stride)
        self._owners = [0] * len(geo.windows)  # how many distinct players are in the window
        self.alive = len(geo.windows)

    def place(self, index: int, code: int) -> None:
        counts, owners, stride = self._counts, self._owners, self._stride
        for window in self._windows_of_cell[index]:
            slot = window * stride + code
            counts[slot] += 1
            if counts[slot] == 1:
                owners[window] += 1
                if owners[window] == 2:
                    self.alive -= 1

    def undo(self, index: int, code: int) -> None:
        counts, owners, stride = self._counts, self._owners, self._stride
        for window in self._windows_of_cell[index]:
            slot = window * stride + code
            counts[slot] -= 1
            if counts[slot] == 0:
                owners[window] -= 1
                if owners[window] == 1:
                    self.alive += 1

    def copy(self) -> LiveWindows:
        """An independent twin for a copied game; the window table is shared."""
        state = self.__dict__.copy()
        state["_counts"] = self._counts.copy()
        state["_owners"] = self._owners.copy()
        twin = object.__new__(LiveWindows)
        twin.__dict__ = state  # one dict copied, not filled key by key: a copy per command
        return twin
