"""Tactics shared by the heuristic and Monte Carlo bots: forks, fork defences, traps, mirror.

No search beyond forced replies. A *fork* is a move after which its player has two winning cells
or more: the opponent can block only one. On 15×15, k=5, an open four and a double four are
forks, and the cells that would make one are where an open three must be stopped. Also here:
gravity traps (a move that opens a winning cell above it) and the misère mirror.
"""

from __future__ import annotations

from .searchboard import SearchBoard

FORCING_PLIES = 6  # how deep defuses() follows forced replies

__all__ = [
    "defuses",
    "fork_cells",
    "forks",
    "hands_a_win",
    "leaves_only_losing_moves",
    "mirror_reply",
    "opponents",
]


def opponents(board: SearchBoard, me: int) -> list[int]:
    """The other players in the order they move next."""
    players = board.players
    return [(me - 1 + step) % players + 1 for step in range(1, players)]


def forks(board: SearchBoard, move: int, code: int) -> bool:
    """Whether ``code`` playing ``move`` leaves it two winning cells or more."""
    board.put(move, code)
    try:
        return not board.won and len(board.winning_cells(code)) >= 2
    finally:
        board.undo()


def hands_a_win(board: SearchBoard, move: int, me: int) -> bool:
    """Whether after ``move`` an opponent has a winning cell (under gravity, a move can
    open the cell above it)."""
    board.put(move, me)
    try:
        return not board.won and any(board.winning_cells(o) for o in opponents(board, me))
    finally:
        board.undo()


def mirror_reply(board: SearchBoard, me: int) -> int | None:
    """The point reflection of the opponent's last move, if the mirror strategy holds.

    Reflecting a box through its centre sends cell ``i`` to ``n - 1 - i``. The strategy
    holds when every mark but one has its opposite mark on its image, the centre cell (odd
    boards) is ours, and the one unpaired mark is the opponent's. Gravity breaks the
    reflection (it turns floors into ceilings), and so do more than two players.
    """
    if board.gravity or board.players != 2:
        return None
    cells, n = board.cells, len(board.cells)
    centre = (n - 1) // 2 if n % 2 else None
    if board.empty == n:
        return centre if me == 1 else None
    if centre is not None and cells[centre] != me:
        return None
    unpaired = []
    for index, code in enumerate(cells):
        if not code or index == centre:
            continue
        image = cells[n - 1 - index]
        if not image:
            unpaired.append(index)
        elif image == code:
            return None
    if len(unpaired) == 1 and cells[unpaired[0]] != me:
        return n - 1 - unpaired[0]
    return None


def leaves_only_losing_moves(board: SearchBoard, move: int, me: int) -> bool:
    """Under misère: after ``move`` every opponent move completes a line of theirs."""
    board.put(move, me)
    try:
        if board.won or board.empty == 0:
            return False
        opponent = board.to_move
        return len(board.winning_cells(opponent)) == len(board.legal_moves())
    finally:
        board.undo()


def defuses(board: SearchBoard, move: int, me: int, opponent: int, candidates: list[int]) -> bool:
    """After ``move``, can the opponent still fork? Forced replies (blocking a winning
    cell) are followed a few plies deep; a free move for them must find no fork cell."""
    board.put(move, me)
    try:
        return _holds(board, me, opponent, candidates, FORCING_PLIES)
    finally:
        board.undo()


def _holds(board: SearchBoard, me: int, opponent: int, candidates: list[int], plies: int) -> bool:
    """``me`` just moved: does the position hold against the opponent's forks?"""
    if board.won:
        return True
    if board.winning_cells(opponent):
        return False  # they win at once
    threats = board.winning_cells(me)
    if len(threats) >= 2:
        return True  # we win next move whatever they do
    if not threats:
        return not fork_cells(board, opponent, candidates)
    if plies <= 0:
        return True  # deep enough for a heuristic bot: assume it holds
    board.put(threats[0], opponent)  # their forced block
    try:
        return _after_their_block(board, me, opponent, candidates, plies)
    finally:
        board.undo()


def _after_their_block(
    board: SearchBoard, me: int, opponent: int, candidates: list[int], plies: int
) -> bool:
    if board.won:
        return False
    their_threats = board.winning_cells(opponent)
    if len(their_threats) >= 2:
        return False
    if their_threats:  # our forced block, then the same question again
        board.put(their_threats[0], me)
        try:
            return _holds(board, me, opponent, candidates, plies - 2)
        finally:
            board.undo()
    # we move freely: one fork cell of theirs we can take, two we cannot
    return len(fork_cells(board, opponent, candidates)) <= 1


def fork_cells(board: SearchBoard, code: int, candidates: list[int]) -> list[int]:
    """The cells among ``candidates`` where ``code`` would make a fork."""
    return [m for m in candidates if board.playable(m) and forks(board, m, code)]
