"""Types of the compiled searches (core/ai/_search.c); see core/ai/speedups.py."""

from collections.abc import Sequence

from .search_host import SearchHost

class ValueSearch:
    capacity: int
    def __init__(
        self,
        host: SearchHost,
        bits: int,
        board: int,
        bottom: int,
        gravity: bool,
        misere: bool,
        k: int,
        shifts: Sequence[int],
        order: Sequence[int],
        perms: Sequence[Sequence[int]],
        buckets: int,
        distance_buckets: int,
    ) -> None: ...
    def search(self, me: int, mask: int, alpha: int, beta: int) -> int: ...
    def wins(self, me: int, mask: int, plies: int) -> bool: ...
    def loses(self, me: int, mask: int, plies: int) -> bool: ...
    def get(self, key: int) -> int | None: ...
    def __len__(self) -> int: ...
