"""Property tests (hypothesis) over random rules and random games of every variant.

- both win strategies agree with brute force, move by move;
- undo restores the exact previous state, strategy counters included;
- encode/decode round-trips; replaying a history reproduces the game;
- a position read back from its text continues exactly like the game it came from.
"""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from core import EndReason, Game, Move, Outcome, Rules, decode, encode, geometry
from core.wins import make_win_strategy
from tests.core.engine_helpers import (
    PROPERTY_SETTINGS,
    VARIANTS,
    choice_lists,
    completed_by,
    play_choices,
    small_rules,
    strategies_for,
)

choices = choice_lists(400)  # most games run to the end
prefixes = choice_lists(40)
variants = st.sampled_from(sorted(VARIANTS)).map(VARIANTS.__getitem__)
any_rules = st.one_of(small_rules(), variants)


def _index(rules: Rules, move: Move) -> int:
    return rules.index(move.row, move.col, move.layer)


def _is_straight_run(rules: Rules, cells: list[int]) -> bool:
    """Consecutive cells of one maximal line of the board, in order."""
    for line in geometry(rules).lines:
        if cells[0] in line:
            start = line.index(cells[0])
            if list(line[start : start + len(cells)]) == cells:
                return True
    return False


# -- win strategies against brute force ---------------------------------------------------


@PROPERTY_SETTINGS
@given(any_rules, choices)
def test_strategies_agree_with_brute_force_move_by_move(rules: Rules, picks: list[int]) -> None:
    games = {name: Game(rules, win_strategy=name) for name in strategies_for(rules)}
    for pick in picks:
        first = next(iter(games.values()))
        if first.is_over:
            break
        legal = first.legal_indices()
        index = legal[pick % len(legal)]
        code = first.ply % rules.players + 1
        for game in games.values():
            game.play_index(index)
        through_move = {w for c, w in completed_by(rules, first.board.cells) if index in w}
        assert all(c == code for c, _ in completed_by(rules, first.board.cells))
        for name, game in games.items():
            outcome = game.outcome
            if not through_move:
                assert outcome is None or outcome.reason != EndReason.LINE, name
                continue
            assert outcome is not None and outcome.reason == EndReason.LINE, name
            line = [_index(rules, m) for m in outcome.line]
            assert index in line and _is_straight_run(rules, line), name
            assert all(game.board.cells[c] == code for c in line), name
            assert any(w <= set(line) for w in through_move), name
            if name == "counter":
                assert frozenset(line) in through_move
    outcomes = {
        (g.outcome.reason, g.outcome.winner, g.outcome.loser) if g.outcome else None
        for g in games.values()
    }
    assert len(outcomes) == 1


@PROPERTY_SETTINGS
@given(any_rules, choices)
def test_strategies_track_places_and_undos_without_the_game(rules: Rules, picks: list[int]) -> None:
    """Straight on the strategy, past any win: a line through the move iff brute force says so."""
    geo = geometry(rules)
    for name in strategies_for(rules):
        strategy = make_win_strategy(geo, rules.players, name)
        cells = [0] * rules.cells
        placed: list[tuple[int, int]] = []
        for pick in picks:
            if pick % 3 == 0 and placed:  # a third of the steps take the last mark back
                index, code = placed.pop()
                cells[index] = 0
                strategy.undo(cells, index, code)
                continue
            empty = [i for i, c in enumerate(cells) if c == 0]
            if not empty:
                continue
            index, code = empty[pick % len(empty)], pick % rules.players + 1
            cells[index] = code
            placed.append((index, code))
            line = strategy.place(cells, index, code)
            expected = {w for c, w in completed_by(rules, cells) if index in w and c == code}
            assert (line is not None) == bool(expected), name
            if line is not None:
                assert any(w <= set(line) for w in expected)


# -- undo ---------------------------------------------------------------------------------


def _state(game: Game) -> tuple[Any, ...]:
    return (
        game.board.copy(),
        game.history,
        game.outcome,
        game.turn,
        game.ply,
        game.legal_indices(),
        encode(game),
    )


def _internals(game: Game) -> tuple[Any, ...]:
    """The strategies' private counters (win lines, live windows, stack heights)."""
    live = vars(game._live) if game._live is not None else None
    return (vars(game._wins), live, vars(game._placement), game.board.empty_count)


@PROPERTY_SETTINGS
@given(any_rules, prefixes, choices)
def test_undo_restores_the_exact_previous_state(
    rules: Rules, prefix: list[int], rest: list[int]
) -> None:
    for strategy in strategies_for(rules):
        game = Game(rules, win_strategy=strategy)
        played = play_choices(game, prefix)
        before_each_move = []
        for pick in rest:
            if game.is_over:
                break
            before_each_move.append((_state(game), _internals(game)))
            play_choices(game, [pick])
        for expected in reversed(before_each_move):  # take every move back, step by step
            game.undo()
            assert (_state(game), _internals(game)) == expected
        fresh = Game.replay(rules, [Move(*rules.coords(i)) for i in played], win_strategy=strategy)
        assert _state(game) == _state(fresh) and _internals(game) == _internals(fresh)
        # continued play behaves identically: the counters really were restored
        assert play_choices(game, rest) == play_choices(fresh, rest)
        assert _state(game) == _state(fresh)


def _state_at_each_step(game: Game, picks: list[int]) -> list[tuple[Any, ...]]:
    seen = []
    for pick in picks:
        if game.is_over:
            break
        play_choices(game, [pick])
        seen.append(_state(game))
    return seen


@PROPERTY_SETTINGS
@given(any_rules, prefixes, st.integers(0, 10_000), choices)
def test_undo_then_the_same_continuation_matches_a_game_never_undone(
    rules: Rules, prefix: list[int], detour: int, rest: list[int]
) -> None:
    game, straight = Game(rules), Game(rules)
    play_choices(game, prefix)
    play_choices(straight, prefix)
    if play_choices(game, [detour]):
        game.undo()
    assert _state_at_each_step(game, rest) == _state_at_each_step(straight, rest)


# -- codec, replay, positions -----------------------------------------------------------


ENDINGS = [
    None,
    lambda g: g.resign(g.turn),
    lambda g: g.timeout(g.rules.marks[-1]),
    lambda g: g.abandon(g.turn, draw=True),
    lambda g: g.agree_draw(),
    lambda g: g.abort(),
]


@PROPERTY_SETTINGS
@given(any_rules, choices, st.sampled_from(range(len(ENDINGS))))
def test_encode_decode_round_trips(rules: Rules, picks: list[int], ending: int) -> None:
    game = Game(rules)
    play_choices(game, picks)
    end = ENDINGS[ending]
    if end is not None and not game.is_over:
        end(game)
    back = decode(encode(game))
    assert _state(back) == _state(game)
    assert back.ended_off_board == game.ended_off_board
    assert encode(back) == encode(game)


@PROPERTY_SETTINGS
@given(any_rules, choices)
def test_replaying_a_history_reproduces_the_game(rules: Rules, picks: list[int]) -> None:
    game = Game(rules)
    play_choices(game, picks)
    assert _state(Game.replay(rules, game.history)) == _state(game)
    # as the protocol sends them: gravity needs only the column (and the row in 3D)
    requests: list[dict[str, int]] = []
    for move in game.history:
        if rules.gravity:
            requests.append({"col": move.col, **({"row": move.row} if rules.is_3d else {})})
        else:
            requests.append(move.to_dict())
    assert _state(Game.replay(rules, requests)) == _state(game)


@PROPERTY_SETTINGS
@given(any_rules, choices, choices)
def test_a_position_continues_like_the_game_it_came_from(
    rules: Rules, picks: list[int], rest: list[int]
) -> None:
    game = Game(rules)
    play_choices(game, picks)
    loaded = Game.from_position(rules, game.board.text)
    assert loaded.board == game.board and loaded.turn == game.turn
    assert loaded.legal_indices() == game.legal_indices()
    if game.outcome is None:
        assert loaded.outcome is None
        assert play_choices(loaded, rest) == play_choices(game, rest)
        assert loaded.board == game.board
    if game.outcome is not None and loaded.outcome is not None:
        drop_line = (game.outcome.reason, game.outcome.winner, game.outcome.loser)
        assert (loaded.outcome.reason, loaded.outcome.winner, loaded.outcome.loser) == drop_line
    assert (loaded.outcome is None) == (game.outcome is None)
    assert loaded.outcome is None or isinstance(loaded.outcome, Outcome)
