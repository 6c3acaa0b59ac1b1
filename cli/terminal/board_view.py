"""The game as terminal text: the board with coordinates, and the result line.

Pure functions of a ``Game`` (no I/O), so the terminal game, bots and tests share them.
A board prints like the seeds' console game, with 0-based labels matching what a player
types and what the engine's messages say::

        0   1   2
     0  X | . | O
       ---+---+---
     1  . |[X]| .
       ---+---+---
     2  . | . | .

``[X]`` marks the last move; at the end ``*X*`` marks the completed line. A 3D board prints
its layers side by side (bottom layer first) when they fit in ``MAX_WIDTH`` columns, and
one under the other when they do not.
"""

from __future__ import annotations

from core import EndReason, Game, Move, Outcome, Rules

__all__ = ["MAX_WIDTH", "describe_cell", "outcome_line", "render_board", "result_line"]

MAX_WIDTH = 100
_GAP = " " * 4  # between layers printed side by side
_LABEL = 3  # width of the row-label column


def describe_cell(rules: Rules, move: Move) -> str:
    """``(row 1, col 2)``, with the layer on 3D boards: the engine's way of naming a cell."""
    layer = f", layer {move.layer}" if rules.is_3d else ""
    return f"(row {move.row}, col {move.col}{layer})"


def _cell(mark: str, *, last: bool, in_line: bool) -> str:
    if in_line:  # the line outranks the last-move mark: the last move is in it anyway
        return f"*{mark}*"
    if last:
        return f"[{mark}]"
    return f" {mark} "


def _grid(game: Game, layer: int, last: Move | None, line: frozenset[Move]) -> list[str]:
    rules, board = game.rules, game.board
    lines = [" " * _LABEL + " ".join(f"{col:^3}" for col in range(rules.cols)).rstrip()]
    separator = " " * _LABEL + "+".join("---" for _ in range(rules.cols))
    for row in range(rules.rows):
        if row:
            lines.append(separator)
        cells = []
        for col in range(rules.cols):
            move = Move(row, col, layer)
            mark = board.at(row, col, layer) or "."
            cells.append(_cell(mark, last=move == last, in_line=move in line))
        lines.append((f"{row:>2} " + "|".join(cells)).rstrip())
    return lines


def _layer_title(rules: Rules, layer: int) -> str:
    if layer == 0:
        return "layer 0 (bottom)"
    if layer == rules.layers - 1:
        return f"layer {layer} (top)"
    return f"layer {layer}"


def render_board(game: Game) -> str:
    """The board as text, last move and (at the end) the completed line marked."""
    rules = game.rules
    history = game.history
    last = history[-1] if history else None
    outcome = game.outcome
    line = frozenset(outcome.line) if outcome is not None else frozenset()
    grids = [_grid(game, layer, last, line) for layer in range(rules.layers)]
    return "\n".join(_arrange_layers(rules, grids) if rules.is_3d else grids[0])


def _arrange_layers(rules: Rules, grids: list[list[str]]) -> list[str]:
    """Titled layer grids side by side when they fit in MAX_WIDTH, else one under another."""
    grid_width = max(len(part) for part in grids[0])
    titled = [
        [_layer_title(rules, layer).center(grid_width).rstrip(), *grid]
        for layer, grid in enumerate(grids)
    ]
    width = max(len(part) for grid in titled for part in grid)  # a title can be the widest
    if rules.layers * width + (rules.layers - 1) * len(_GAP) <= MAX_WIDTH:
        rows = zip(*titled, strict=True)
        return [_GAP.join(part.ljust(width) for part in row).rstrip() for row in rows]
    stacked: list[str] = []
    for grid in titled:
        stacked += [*([""] if stacked else []), *grid]
    return stacked


def _line_text(rules: Rules, outcome: Outcome) -> str:
    cells = " ".join(describe_cell(rules, move) for move in outcome.line)
    return f"{rules.k} in a row at {cells}"


def result_line(game: Game) -> str:
    """One line saying how the game ended; the game must be over."""
    if game.outcome is None:
        raise ValueError("the game is not over yet")
    return outcome_line(game.rules, game.outcome)


def outcome_line(rules: Rules, outcome: Outcome) -> str:
    """One line saying how a game under ``rules`` ended with ``outcome`` (also one the server
    reports: a resignation or a flag, which the board alone does not show)."""
    if outcome.reason == EndReason.LINE:
        line = _line_text(rules, outcome)
        if not rules.misere:
            return f"Result: {outcome.winner} wins with {line}."
        if outcome.winner is not None:
            return f"Result: {outcome.winner} wins: {outcome.loser} completed {line} (misère)."
        return f"Result: {outcome.loser} completed {line} and loses (misère); no winner."
    if outcome.reason == EndReason.BOARD_FULL:
        return "Result: draw, the board is full."
    if outcome.reason == EndReason.NO_LINE_LEFT:
        return "Result: draw, nobody can complete a line any more."
    reason = outcome.reason.value.replace("_", " ")
    if outcome.winner is not None:
        return f"Result: {outcome.winner} wins by {reason}."
    if outcome.loser is not None:
        return f"Result: {outcome.loser} loses by {reason}."
    if outcome.reason == EndReason.ABORTED:
        return "Result: none, the game was aborted."
    return f"Result: draw by {reason}."
