"""The perfect bot on 3×3: it never loses, whatever the opponent plays (every reply tried,
as X and as O), and from every won position it wins, as fast as the solver promised."""

from __future__ import annotations

import random

import pytest

from core import Game, Rules
from core.ai import UNLIMITED, Verdict, perfect
from core.ai.bot import Bot
from core.ai.factory import make_bot
from core.ai.perfect import PerfectBot
from tests.core.ai.ai_reference import (
    BIG,
    as_verdict,
    memo_minimax,
    reachable_positions,
    terminal_score,
)


def bot_score(game: Game, bot_mark: str) -> int:
    """Score of the finished game for the bot: BIG - end ply for a win, negated for a
    loss, 0 for a draw."""
    score = terminal_score(game)  # for the side that would move next
    return score if game.turn == bot_mark else -score


def worst_case(game: Game, bot: Bot, bot_mark: str, memo: dict[tuple[str, str], int] | None) -> int:
    """The bot's score against the worst opponent: every opponent reply is tried."""
    if game.is_over:
        return bot_score(game, bot_mark)
    key = (game.board.text, bot_mark)
    if memo is not None and key in memo:
        return memo[key]
    if game.turn == bot_mark:
        game.play(bot.choose(game))
        result = worst_case(game, bot, bot_mark, memo)
        game.undo()
    else:
        result = BIG
        for move in game.legal_moves():
            game.play(move)
            result = min(result, worst_case(game, bot, bot_mark, memo))
            game.undo()
    if memo is not None:
        memo[key] = result
    return result


@pytest.mark.parametrize(
    "rules", [Rules(3, 3, 3), Rules(3, 3, 3, misere=True)], ids=lambda r: r.describe()
)
@pytest.mark.parametrize("mark", ["X", "O"])
def test_never_loses_against_any_line(rules: Rules, mark: str) -> None:
    bot = make_bot("perfect", seed=1, budget=UNLIMITED)
    # no memory: every line of play is walked, the bot asked afresh at each of its turns
    assert worst_case(Game(rules), bot, mark, memo=None) == 0  # the value: a draw


@pytest.mark.parametrize(
    "rules", [Rules(3, 3, 3), Rules(3, 3, 3, misere=True)], ids=lambda r: r.describe()
)
def test_converts_every_won_position_as_fast_as_promised(
    rules: Rules, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The playouts that pick among proven-best moves cannot change a value; a few keep
    # this walk over every position (thousands of choices) quick.
    monkeypatch.setattr(perfect, "TIE_BREAK_PLAYOUTS", 10)
    bot = PerfectBot(random.Random(5), UNLIMITED)
    reference: dict[tuple[int, ...], int] = {}
    memo: dict[tuple[str, str], int] = {}
    won = 0
    for text in reachable_positions(Game(rules)):
        game = Game.from_position(rules, text)
        if game.is_over:
            continue
        value = memo_minimax(game, reference)
        verdict, _ = as_verdict(value, game.ply)
        worst = worst_case(game, bot, game.turn, memo)
        if verdict is Verdict.WIN:
            won += 1
            assert worst == value, text  # wins, and no defence delays it past the promise
        else:
            assert worst >= value, text  # never worse than the position's value
    assert won > 1000
