"""The search board agrees with the real engine move by move, and its incremental tables
(counts, dead windows, winning cells, threat potential, symmetry keys) with a recount."""

from __future__ import annotations

import random

import pytest

from core import Game, Rules
from core.ai.searchboard import SearchBoard, window_weights
from core.ai.symmetry import canonical_form, symmetries
from core.geometry import geometry

RULES = [
    Rules(3, 3, 3),
    Rules(4, 4, 3),
    Rules(3, 3, 3, misere=True),
    Rules(4, 4, 4, early_draw=True),
    Rules(5, 5, 4, gravity=True),
    Rules(3, 3, 3, layers=3),
    Rules(3, 3, 3, layers=3, gravity=True),
    Rules(5, 5, 3, players=4),
    Rules(6, 6, 5),
    Rules(3, 4, 1),
]


def recount(board: SearchBoard) -> dict[str, object]:
    """The incremental tables recomputed from the cells alone."""
    geo = geometry(board.rules)
    weights = window_weights(board.rules.k)
    players = board.rules.players
    potential = [0] * (players + 1)
    near: list[set[int]] = [set() for _ in range(players + 1)]
    dead = 0
    for w, window in enumerate(geo.windows):
        held = {board.cells[c] for c in window} - {0}
        if len(held) >= 2:
            dead += 1
        elif len(held) == 1:
            (code,) = held
            count = sum(board.cells[c] == code for c in window)
            potential[code] += weights[count]
            if count == board.rules.k - 1:
                near[code].add(w)
    return {"potential": potential, "near": near, "dead": dead}


def brute_winning_cells(board: SearchBoard, code: int) -> list[int]:
    geo = geometry(board.rules)
    found = []
    for cell in board.legal_moves():
        trial = list(board.cells)
        trial[cell] = code
        if any(all(trial[c] == code for c in window) for window in geo.windows if cell in window):
            found.append(cell)
    return found


@pytest.mark.parametrize("rules", RULES, ids=lambda r: r.describe())
def test_random_games_agree_with_the_engine_and_a_recount(rules: Rules) -> None:
    rng = random.Random(rules.cells)
    for _ in range(12):
        game = Game(rules)
        board = SearchBoard(rules, with_keys=True)
        empty_state = recount(board)
        while not game.is_over:
            assert board.legal_moves() == game.legal_indices()
            for code in range(1, rules.players + 1):
                assert board.winning_cells(code) == brute_winning_cells(board, code)
            move = rng.choice(game.legal_indices())
            game.play_index(move)
            board.place(move)
            assert board.won == (game.outcome is not None and game.outcome.reason == "line")
            state = recount(board)
            assert state == {"potential": board.potential, "near": board.near, "dead": board.dead}
            if rules.early_draw and not board.won:
                assert (game.outcome is not None) == (board.all_dead or board.empty == 0)
        while board.history:
            board.undo()
        assert board.cells == [0] * rules.cells and board.ply == 0
        assert recount(board) == empty_state and board.potential == [0] * (rules.players + 1)
        assert board.keys == [0] * len(symmetries(rules))


def test_from_game_reads_setup_and_moves_alike() -> None:
    rules = Rules(4, 4, 3)
    game = Game.from_position(rules, "X.../.O../..../....")
    game.play_index(15)
    board = SearchBoard.from_game(game)
    assert board.cells == game.board.cells and board.ply == 3 and board.to_move == 2
    assert board.history == []  # the root: searches undo only their own moves


@pytest.mark.parametrize(
    "rules",
    [Rules(3, 3, 3), Rules(3, 4, 3), Rules(4, 5, 4, gravity=True), Rules(3, 3, 3, layers=3)],
    ids=lambda r: r.describe(),
)
def test_canonical_keys_are_equal_exactly_for_equivalent_positions(rules: Rules) -> None:
    rng = random.Random(7)
    perms = symmetries(rules)
    seen: dict[bytes, int] = {}
    for _ in range(60):
        game = Game(rules)
        for _ in range(rng.randrange(1, 6)):
            if game.is_over:
                break
            game.play_index(rng.choice(game.legal_indices()))
        cells = game.board.cells
        key = SearchBoard.from_cells(rules, cells, with_keys=True).canonical_key()
        form = canonical_form(rules, cells)
        for perm in perms:
            image = [0] * len(cells)
            for index, code in enumerate(cells):
                image[perm[index]] = code
            assert SearchBoard.from_cells(rules, image, with_keys=True).canonical_key() == key
            assert canonical_form(rules, image) == form
        # one key per class: different classes never share a key
        assert seen.setdefault(form, key) == key
    assert len(set(seen.values())) == len(seen)
