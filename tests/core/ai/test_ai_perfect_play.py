"""The perfect bot on 3×3: it never loses, whatever the opponent plays (every reply tried,
as X and as O), and from every won position it wins, as fast as the solver promised."""

from __future__ import annotations

import random

import pytest

from core import Game, Move, Rules
from core.ai import UNLIMITED, Budget, Verdict, perfect, solve
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

# the compiled search, or the pure one when the run asks for it (conftest.py)
pytestmark = pytest.mark.usefixtures("search_implementation")


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
    # The playouts that pick among moves with equally few safe replies cannot change a
    # value; a few keep this walk over every position (thousands of choices) quick.
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


def test_it_opens_where_the_opponent_has_the_fewest_safe_replies() -> None:
    """3×3: after a corner only the centre holds the draw for O (after the centre four
    corners do, after an edge four cells), so X opens in a corner, whatever its seed."""
    corners = {Move(0, 0), Move(0, 2), Move(2, 0), Move(2, 2)}
    for seed in range(6):
        bot = PerfectBot(random.Random(seed), UNLIMITED)
        assert bot.choose(Game(Rules(3, 3, 3))) in corners
        assert bot.last_result is not None and bot.last_result.proven


def test_without_a_proof_in_time_it_says_so_and_still_plays_well() -> None:
    """Connect Four's opening cannot be proven in 400 nodes: the move comes from the
    Monte Carlo search (so O still turns its two on the bottom row into an open three,
    a sure win), flagged as unproven."""
    rules = Rules(6, 7, 4, gravity=True)
    game = Game.replay(rules, [Move(5, 0), Move(5, 3), Move(5, 6), Move(5, 4), Move(4, 6)])
    bot = PerfectBot(random.Random(1), Budget(seconds=None, nodes=400))
    move = bot.choose(game)
    assert bot.last_result is not None and not bot.last_result.proven
    assert (bot.unproven_moves, bot.proven_moves) == (1, 0)
    assert move in (Move(5, 2), Move(5, 5))


def test_a_drawn_game_stays_drawn_when_a_later_proof_runs_out() -> None:
    """4×4 k=4: the first move is proven a draw; with 8 nodes a move the next position
    cannot be solved, but a move that provably keeps the draw is found in the last proof's
    table, played and counted as proven."""
    rules = Rules(4, 4, 4)
    bot = PerfectBot(random.Random(1), UNLIMITED)
    game = Game(rules)
    game.play(bot.choose(game))
    game.play(game.legal_moves()[0])
    bot.budget = Budget(seconds=None, nodes=8)
    game.play(bot.choose(game))
    assert bot.last_result is not None and not bot.last_result.proven
    assert (bot.proven_moves, bot.unproven_moves) == (2, 0)
    assert solve(game, all_best=False).value in (Verdict.DRAW, Verdict.LOSS)  # for O
