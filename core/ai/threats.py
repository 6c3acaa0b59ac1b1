"""Threat scoring over k-windows: how good a cell is for attack and for defence.

A window only one player holds is a live threat for that player, worth ``weights[count]``
(1, 8, 64, ... for 1, 2, 3, ... marks). An open run sits in more live windows than a
half-open one (``.XXX..`` on a long line lies in three live 5-windows, ``OXXX..`` in one),
so summing windows scores open and half-open runs without naming them. Playing a cell
raises the mover's own windows by one mark (attack) and kills every window an opponent
held alone there (defence): both gains are read from the SearchBoard's counts, no search.
"""

from __future__ import annotations

from functools import lru_cache

from ..rules import Rules
from .searchboard import SearchBoard
from .values import clamp_eval

__all__ = ["LARGE_BOARD", "candidate_moves", "evaluate", "move_gains", "neighbourhood"]

LARGE_BOARD = 49  # from 7×7 on, bots consider only the cells near the marks


def move_gains(board: SearchBoard, index: int, code: int) -> tuple[int, int]:
    """(attack, defence): how much ``code`` playing ``index`` raises its own potential and
    lowers its opponents'."""
    weights, owners = board.weights, board.owners
    mine = board.counts[code]
    attack = defence = 0
    for w in board.windows_of[index]:
        held = owners[w]
        if held == 0:
            attack += weights[1]
        elif held == 1:
            count = mine[w]
            if count:
                attack += weights[count + 1] - weights[count]
            else:
                for other in range(1, board.players + 1):
                    if other != code and board.counts[other][w]:
                        defence += weights[board.counts[other][w]]
                        break
    return attack, defence


def evaluate(board: SearchBoard, code: int) -> int:
    """Static value of the position for ``code``: own potential minus the opponents'.

    Under misère holding lines is a liability, so the sign flips.
    """
    pot = board.potential
    mine = pot[code]
    theirs = sum(pot) - mine
    score = theirs - mine if board.rules.misere else mine - theirs
    return clamp_eval(score)


def candidate_moves(board: SearchBoard) -> list[int]:
    """The moves a bot weighs: every legal move on a small board, the neighbourhood of
    the marks on a large one."""
    return neighbourhood(board) if len(board.cells) >= LARGE_BOARD else board.legal_moves()


def neighbourhood(board: SearchBoard, reach: int = 2) -> list[int]:
    """Legal cells within ``reach`` king steps of a mark, in index order.

    On a large board the moves worth thinking about are near the fight; an empty board
    offers its centre.
    """
    cells = board.cells
    if board.empty == len(cells):
        rules = board.rules
        centre = rules.index(rules.rows // 2, rules.cols // 2, rules.layers // 2)
        return [centre] if board.playable(centre) else board.legal_moves()[:1]
    table = _neighbours(board.rules, reach)
    near: set[int] = set()
    for index, code in enumerate(cells):
        if code:
            near.update(table[index])
    found = sorted(c for c in near if board.playable(c))
    return found or board.legal_moves()


@lru_cache(maxsize=32)
def _neighbours(rules: Rules, reach: int) -> tuple[tuple[int, ...], ...]:
    steps = range(-reach, reach + 1)
    layer_steps = steps if rules.is_3d else range(1)
    table = []
    for index in range(rules.cells):
        row, col, layer = rules.coords(index)
        table.append(
            tuple(
                rules.index(row + dr, col + dc, layer + dl)
                for dl in layer_steps
                for dr in steps
                for dc in steps
                if (dl, dr, dc) != (0, 0, 0)
                and 0 <= row + dr < rules.rows
                and 0 <= col + dc < rules.cols
                and 0 <= layer + dl < rules.layers
            )
        )
    return tuple(table)
