"""The value search of ``core.ai.solver``: win/draw/loss for the side to move, proved by
negamax with alpha-beta on the three values over bitboards (the solver's module docstring
gives the shortcuts and the table's entries). Built once per solver as a closure over its
layout, table and clock, the hot loop's names bound locally."""

from __future__ import annotations

from collections.abc import Callable

from .ordering import EVALUATE_MAX_MOVES, move_evaluator
from .search_host import SearchHost
from .table import TranspositionTable

__all__ = ["ORDER_EMPTY", "SYMMETRY_PLIES", "make_value_search"]

SYMMETRY_PLIES = 8  # positions this close to the start are stored under their canonical key
ORDER_EMPTY = 8  # nodes with at least this many empty cells order their moves by evaluation


def make_value_search(solver: SearchHost) -> Callable[[int, int, int, int], int]:
    layout = solver.layout
    board, bottom, gravity, misere = layout.board, layout.bottom, layout.gravity, layout.misere
    winning, has_line = layout.winning_cells, layout.has_line
    order, table = solver.order, solver.table
    assert isinstance(table, TranspositionTable), "the pure search fills a pure table"
    get, put = table.get, table.put
    key_of, map_move, unmap_move = solver.canonical_key_of, solver.map_move, solver.unmap_move
    symmetric = len(solver.sym_tables) > 1
    bits, cells = layout.bits, layout.cells
    evaluate = move_evaluator(layout)

    def search(me: int, mask: int, alpha: int, beta: int) -> int:
        solver.countdown -= 1
        if solver.countdown <= 0:
            solver.check_clock()
        opp = me ^ mask
        empty = board & ~mask
        if not empty:
            return 0
        playable = (mask + bottom) & board if gravity else empty
        if misere:
            moves = playable & ~winning(me, playable)
            if not moves:
                return -1  # every move completes one's own line
            high = 1 if has_line(board & ~me) else 0
            low = -1 if has_line(board & ~opp) else 0
        else:
            if winning(me, playable):
                return 1
            threats = winning(opp, empty)
            now = threats & playable
            if now:
                if now & (now - 1):
                    return -1  # two cells to block
                if gravity and (now << 1) & threats:
                    return -1  # the block lifts the opponent onto its other cell
                moves = now
            else:
                moves = playable & ~(threats >> 1) if gravity else playable
                if not moves:
                    return -1  # every move hands the opponent a winning cell
            high = 1 if has_line(board & ~opp) else 0
            low = -1 if has_line(board & ~me) else 0
        if high == low:
            return high
        if symmetric and mask.bit_count() <= SYMMETRY_PLIES:
            key, sym = key_of(me, mask)
        else:
            key, sym = (mask << bits) | me, 0
        entry = get(key)
        hint = 0
        if entry is not None:  # (hot path: a comparison costs less than max() or min())
            if (entry & 3) - 1 > low:  # noqa: PLR1730
                low = (entry & 3) - 1
            if (entry >> 2 & 3) - 1 < high:  # noqa: PLR1730
                high = (entry >> 2 & 3) - 1
            hint = entry >> 4
            if sym and hint:
                hint = unmap_move(hint, sym)
        if low >= beta or low == high:
            return low
        if high <= alpha:
            return high
        if low > alpha:  # noqa: PLR1730
            alpha = low
        if high < beta:  # noqa: PLR1730
            beta = high
        if moves & (moves - 1):
            if empty.bit_count() >= ORDER_EMPTY and moves.bit_count() <= EVALUATE_MAX_MOVES:
                ordered = evaluate(me, mask, moves)
            else:
                ordered = [m for m in order if m & moves]
            if hint & moves and ordered[0] != hint:
                ordered.remove(hint)
                ordered.insert(0, hint)
        else:
            ordered = [moves]
        best, best_move = -2, 0
        start_alpha = alpha
        for move in ordered:
            child_mask = mask | move
            score = 0 if child_mask == board else -search(opp, child_mask, -beta, -alpha)
            if score > best:
                best, best_move = score, move
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        if best >= beta:
            low = best  # a lower bound: a refutation was enough
        elif best <= start_alpha:
            high = best  # an upper bound: nothing reached the window
        else:
            low = high = best
        if sym:
            best_move = map_move(best_move, sym)
        put(key, cells - mask.bit_count(), best_move << 4 | (high + 1) << 2 | (low + 1))
        return best

    return search
