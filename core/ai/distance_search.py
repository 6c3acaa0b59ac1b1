"""The distance search of ``core.ai.solver``: whether the side to move wins (loses) with
the game ending within n plies, each probe a yes/no proof with its own table; the solver
deepens n one ply at a time to find the distance to the end of best play."""

from __future__ import annotations

from collections.abc import Callable

from .search_host import SearchHost

__all__ = ["make_distance_search"]


def make_distance_search(
    solver: SearchHost,
) -> tuple[Callable[[int, int, int], bool], Callable[[int, int, int], bool]]:
    layout = solver.layout
    board, bottom, gravity, misere = layout.board, layout.bottom, layout.gravity, layout.misere
    winning, has_line = layout.winning_cells, layout.has_line
    order, table = solver.order, solver.distance_table
    get, put = table.get, table.put
    bits, cells = layout.bits, layout.cells

    def moves_of(mask: int) -> int:
        empty = board & ~mask
        return (mask + bottom) & board if gravity else empty

    def remember(me: int, mask: int, plies: int, kind: int, result: bool) -> bool:
        key = (((mask << bits) | me) << 1) | kind
        entry = get(key) or (-1, 1 << 30)  # (most plies proved false, fewest proved true)
        entry = (entry[0], min(entry[1], plies)) if result else (max(entry[0], plies), entry[1])
        put(key, cells - mask.bit_count(), entry)
        return result

    def recall(me: int, mask: int, plies: int, kind: int) -> bool | None:
        entry = get((((mask << bits) | me) << 1) | kind)
        if entry is None:
            return None
        if plies >= entry[1]:
            return True
        if plies <= entry[0]:
            return False
        return None

    def wins(me: int, mask: int, plies: int) -> bool:
        """The side to move forces a win, the game over within ``plies``."""
        solver.countdown -= 1
        if solver.countdown <= 0:
            solver.check_clock()
        opp = me ^ mask
        empty = board & ~mask
        playable = moves_of(mask)
        if plies < 1 or not empty:
            return False
        if misere:
            if plies < 2 or not has_line(board & ~me):
                return False
            moves = playable & ~winning(me, playable)
        else:
            if winning(me, playable):
                return True
            if plies < 3 or not has_line(board & ~opp):
                return False
            threats = winning(opp, empty)
            now = threats & playable
            if now & (now - 1):
                return False
            moves = now or (playable & ~(threats >> 1) if gravity else playable)
        if not moves:
            return False
        known = recall(me, mask, plies, 0)
        if known is not None:
            return known
        for move in order:
            if move & moves:
                child_mask = mask | move
                if child_mask != board and loses(opp, child_mask, plies - 1):
                    return remember(me, mask, plies, 0, True)
        return remember(me, mask, plies, 0, False)

    def loses(me: int, mask: int, plies: int) -> bool:
        """Every move of the side to move loses, the game over within ``plies``."""
        solver.countdown -= 1
        if solver.countdown <= 0:
            solver.check_clock()
        opp = me ^ mask
        empty = board & ~mask
        if plies < 1 or not empty:
            return False
        playable = moves_of(mask)
        if misere:
            moves = playable & ~winning(me, playable)
            if not moves:
                return True  # every move completes one's own line
            if plies < 3 or not has_line(board & ~opp):
                return False
        else:
            if plies < 2 or winning(me, playable):
                return False
            threats = winning(opp, empty)
            now = threats & playable
            if now & (now - 1):
                return True
            moves = now or (playable & ~(threats >> 1) if gravity else playable)
            if not has_line(board & ~me):
                return False  # the opponent can no longer complete a line
            if not moves:
                return True  # every move lets the opponent win at once
        known = recall(me, mask, plies, 1)
        if known is not None:
            return known
        for move in order:
            if move & moves:
                child_mask = mask | move
                if child_mask == board or not wins(opp, child_mask, plies - 1):
                    return remember(me, mask, plies, 1, False)
        return remember(me, mask, plies, 1, True)

    return wins, loses
