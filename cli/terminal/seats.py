"""Where each seat's moves come from: the terminal now; a bot or a remote room later.

The game loop asks the seat of the side to move for its next command and never cares who
answers, so ``--bot`` and ``--connect`` add a ``MoveSource`` each and change nothing else.
"""

from __future__ import annotations

from typing import Protocol, TextIO

from core import Game

from .move_input import Command, parse_command, prompt

__all__ = ["MoveSource", "TerminalSeat"]


class MoveSource(Protocol):
    def next_command(self, game: Game) -> Command | None:
        """The next command for the side to move, or None when the source has run dry.

        Raises a GameError (e.g. MalformedMove) for input it cannot make sense of; the
        loop shows the message and asks again.
        """


class TerminalSeat:
    """A person at the terminal: prompts on ``output``, reads ``input`` a line at a time.

    Hot-seat play gives every mark the same TerminalSeat. When ``input`` is not a terminal
    (a script, a pipe) each line read is echoed after the prompt, so the transcript reads
    as if typed.
    """

    def __init__(self, input: TextIO, output: TextIO) -> None:
        self._input = input
        self._output = output
        self._echo = not input.isatty()

    def next_command(self, game: Game) -> Command | None:
        while True:
            self._output.write(prompt(game.rules, game.turn))
            self._output.flush()
            line = self._input.readline()
            if not line:  # end of input: no newline at all, not even an empty line
                self._output.write("\n")
                return None
            if self._echo:
                self._output.write(line if line.endswith("\n") else line + "\n")
            command = parse_command(line, game.rules)
            if command is not None:
                return command
