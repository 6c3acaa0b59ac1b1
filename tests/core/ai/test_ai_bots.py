"""Every level through the factory: legal, reproducible, harmless to the game; and the
tactics each level promises (wins, blocks, forks, openings, gravity and misère care)."""

from __future__ import annotations

import pytest

from core import Game, GameOver, Move, Rules
from core.ai import BadBudget, Budget, UnknownBot, UnsupportedGame
from core.ai.factory import LEVELS, make_bot
from core.ai.mcts import MctsBot
from core.ai.searchboard import SearchBoard
from core.ai.selfplay import play_game
from core.ai.tactics import forks as makes_fork
from tests.core.ai.ai_reference import reachable_positions

FAST = Budget(seconds=None, nodes=300)  # node budgets keep every choice reproducible


def test_levels_and_unknown_names() -> None:
    assert LEVELS == ("random", "easy", "medium", "hard", "perfect")
    with pytest.raises(UnknownBot, match=r"'expert'.*random, easy, medium, hard, perfect"):
        make_bot("expert")
    with pytest.raises(UnknownBot):
        make_bot(3)  # type: ignore[arg-type]


@pytest.mark.parametrize("budget", [-1, 0, float("nan"), "fast", True])
def test_bad_budgets_are_refused(budget: object) -> None:
    with pytest.raises(BadBudget):
        make_bot("hard", budget=budget)  # type: ignore[arg-type]
    with pytest.raises(BadBudget):
        Budget(seconds=None, nodes=0)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize(
    "rules",
    [
        Rules(3, 3, 3),
        Rules(5, 5, 4, gravity=True),
        Rules(3, 3, 3, misere=True),
        Rules(3, 3, 3, layers=3),
        Rules(4, 4, 4, early_draw=True),
    ],
    ids=lambda r: r.describe(),
)
def test_every_level_finishes_games_legally_and_reproducibly(level: str, rules: Rules) -> None:
    bots = [make_bot(level, seed=1, budget=FAST), make_bot(level, seed=2, budget=FAST)]
    first = play_game(rules, bots)  # Game.play validates every move
    again = play_game(
        rules, [make_bot(level, seed=1, budget=FAST), make_bot(level, seed=2, budget=FAST)]
    )
    assert first.history == again.history and first.outcome == again.outcome


@pytest.mark.parametrize("level", LEVELS)
def test_choosing_leaves_the_game_untouched_and_finished_games_are_refused(level: str) -> None:
    game = Game.replay(Rules(4, 4, 3), [Move(0, 0), Move(1, 1)])
    before = (game.board.text, game.history)
    bot = make_bot(level, seed=3, budget=FAST)
    assert bot.choose(game) in game.legal_moves()
    assert (game.board.text, game.history) == before
    over = Game.from_position(Rules(3, 3, 3), "XXX/OO./...")
    with pytest.raises(GameOver):
        bot.choose(over)


@pytest.mark.parametrize("level", ["random", "easy", "medium", "hard"])
def test_three_and_four_players(level: str) -> None:
    for players in (3, 4):
        rules = Rules(5, 5, 3, players=players)
        bots = [make_bot(level, seed=s, budget=FAST) for s in range(players)]
        assert play_game(rules, bots).is_over


def test_the_perfect_bot_refuses_more_than_two_players() -> None:
    with pytest.raises(UnsupportedGame, match="two-player"):
        make_bot("perfect").choose(Game(Rules(4, 4, 3, players=3)))


def test_random_is_uniform_over_legal_moves() -> None:
    game = Game(Rules(3, 3, 3))
    bot = make_bot("random", seed=11)
    counts: dict[Move, int] = {}
    for _ in range(1800):
        move = bot.choose(game)
        counts[move] = counts.get(move, 0) + 1
    assert set(counts) == set(game.legal_moves())
    assert all(140 <= n <= 260 for n in counts.values())  # 200 expected, ±4 standard dev.


# -- tactics ---------------------------------------------------------------------------

WIN_NOW = "XX./OO./..."  # X to move wins at 0,2
BLOCK = "XX./O../..."  # O to move must block at 0,2


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "perfect"])
def test_every_level_above_random_wins_when_it_can(level: str) -> None:
    game = Game.from_position(Rules(3, 3, 3), WIN_NOW)
    for seed in range(5):
        assert make_bot(level, seed=seed, budget=FAST).choose(game) == Move(0, 2)


@pytest.mark.parametrize("level", ["medium", "hard", "perfect"])
def test_medium_and_up_always_block(level: str) -> None:
    game = Game.from_position(Rules(3, 3, 3), BLOCK)
    for seed in range(5):
        assert make_bot(level, seed=seed, budget=FAST).choose(game) == Move(0, 2)


def test_easy_blocks_only_sometimes() -> None:
    game = Game.from_position(Rules(3, 3, 3), BLOCK)
    choices = {make_bot("easy", seed=seed).choose(game) for seed in range(40)}
    assert Move(0, 2) in choices and len(choices) > 1


def test_medium_opens_in_the_centre_and_answers_a_corner_with_the_centre() -> None:
    rules = Rules(3, 3, 3)
    assert make_bot("medium", seed=1).choose(Game(rules)) == Move(1, 1)
    corner = Game.replay(rules, [Move(0, 0)])
    assert make_bot("medium", seed=1).choose(corner) == Move(1, 1)
    centre = Game.replay(rules, [Move(1, 1)])
    reply = make_bot("medium", seed=1).choose(centre)
    assert reply.row in (0, 2) and reply.col in (0, 2)  # a corner: an edge loses


def test_medium_forks_whenever_it_can_and_nothing_more_urgent_is_on() -> None:
    """Every reachable 3×3 position with no win to take and no threat to block, but a
    fork to make: medium makes one."""
    rules = Rules(3, 3, 3)
    checked = 0
    for text in reachable_positions(Game(rules)):
        game = Game.from_position(rules, text)
        if game.is_over:
            continue
        board = SearchBoard.from_game(game)
        me = board.to_move
        if board.winning_cells(me) or board.winning_cells(3 - me):
            continue
        forks = {m for m in board.legal_moves() if makes_fork(board, m, me)}
        if forks:
            choice = make_bot("medium", seed=checked).choose(game)
            assert rules.index(choice.row, choice.col) in forks, text
            checked += 1
    assert checked > 50


def test_medium_defuses_the_opposite_corners_trap() -> None:
    """X in two opposite corners, O in the centre: O must play an edge (forcing X to
    answer) - a corner lets X fork. The perfect bot agrees."""
    game = Game.from_position(Rules(3, 3, 3), "X../.O./..X")
    for seed in range(5):
        move = make_bot("medium", seed=seed).choose(game)
        assert (move.row + move.col) % 2 == 1  # an edge


def test_medium_does_not_open_a_winning_cell_for_the_opponent_under_gravity() -> None:
    rules = Rules(4, 4, 3, gravity=True)
    game = Game.from_position(rules, "..../.X../OO../XO.X")
    board = SearchBoard.from_game(game)
    assert not board.winning_cells(1) and not board.winning_cells(2)
    board.place(rules.index(3, 2))
    assert board.winning_cells(2) == [rules.index(2, 2)]  # column 2 would open O's row
    for seed in range(5):
        assert make_bot("medium", seed=seed).choose(game).col != 2


@pytest.mark.parametrize("level", ["easy", "medium", "hard", "perfect"])
def test_misere_bots_do_not_complete_their_own_line_when_they_can_help_it(level: str) -> None:
    game = Game.from_position(Rules(3, 3, 3, misere=True), "XX./OO./...")
    for seed in range(3):
        assert make_bot(level, seed=seed, budget=FAST).choose(game) != Move(0, 2)


def test_medium_mirrors_under_misere_and_never_loses_as_first_player() -> None:
    rules = Rules(3, 3, 3, misere=True)
    game = Game.replay(rules, [Move(1, 1), Move(0, 1)])
    assert make_bot("medium", seed=1).choose(game) == Move(2, 1)  # the reflection
    for seed in range(10):
        bots = [make_bot("medium", seed=seed), make_bot("random", seed=seed + 50)]
        assert play_game(rules, bots).outcome.winner != "O"  # type: ignore[union-attr]


def test_medium_blocks_an_open_three_on_fifteen_by_fifteen() -> None:
    rules = Rules(15, 15, 5)
    game = Game.replay(
        rules, [Move(7, 6), Move(0, 0), Move(7, 7), Move(0, 14), Move(7, 8)]
    )  # X: .XXX. in row 7; O to move must stop the open four
    move = make_bot("medium", seed=1).choose(game)
    assert move in (Move(7, 5), Move(7, 9), Move(7, 4), Move(7, 10))


def test_hard_respects_its_playout_budget_and_blocks_a_four() -> None:
    rules = Rules(15, 15, 5)
    game = Game.replay(
        rules,
        [Move(7, 5), Move(0, 0), Move(7, 6), Move(0, 14), Move(7, 7), Move(14, 0), Move(7, 8)],
    )  # X has four in a row, one end open on each side: O must block one of them
    bot = make_bot("hard", seed=4, budget=Budget(seconds=None, nodes=200))
    assert bot.choose(game) in (Move(7, 4), Move(7, 9))
    assert isinstance(bot, MctsBot)
    quiet = Game.replay(rules, [Move(7, 7), Move(8, 8)])
    bot.choose(quiet)
    assert bot.last_stats.iterations == 200


def test_hard_beats_medium_on_fifteen_by_fifteen() -> None:
    """Two seeds, each colour: hard on 1,000 playouts a move (a third of its default
    second) wins all four. The longer match, on 3,000 playouts, is bench.solver's league."""
    rules = Rules(15, 15, 5)
    for seed in (0, 1):
        for hard_plays in ("X", "O"):
            hard = make_bot("hard", seed=seed, budget=Budget(seconds=None, nodes=1_000))
            medium = make_bot("medium", seed=seed)
            bots = [hard, medium] if hard_plays == "X" else [medium, hard]
            game = play_game(rules, bots)
            assert game.outcome is not None, game.board.text
            assert game.outcome.winner == hard_plays, game.board.text
