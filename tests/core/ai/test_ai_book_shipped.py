"""The books shipped in the package: they load (their checksum verified), know the boards'
known values, and sampled entries re-proven by the solver agree; the perfect bot and the
analysis answer from them at once."""

from __future__ import annotations

import random

import pytest

from core import Game, Move, Rules
from core.ai import UNLIMITED, Budget, PerfectBot, Solver, Verdict, analyze
from core.ai.book import SHIPPED, Book, book_for
from tests.core.ai.book_walks import first_player_strategy

C4_6X5 = Rules(5, 6, 4, gravity=True)
K4_5X5 = Rules(5, 5, 4)
C4_7X6 = Rules(6, 7, 4, gravity=True)
KNOWN = {C4_6X5: 0, K4_5X5: 0, C4_7X6: 1}  # the empty board's value for the first player
PROVABLE = [C4_6X5, K4_5X5, C4_7X6]  # the solver re-proves their entries
# the ply from which the slow test samples entries: 7×6's nearer the opening take the
# solver minutes each (its empty board about four, the build's first proof)
FROM_PLY = {C4_6X5: 0, K4_5X5: 0, C4_7X6: 12}


def shipped(rules: Rules) -> Book:
    book = book_for(rules)
    assert book is not None, f"no book shipped for {rules.describe()}"
    return book


@pytest.mark.parametrize("rules", list(SHIPPED), ids=lambda r: r.describe())
def test_each_shipped_book_loads_with_the_known_value(rules: Rules) -> None:
    book = shipped(rules)
    assert len(book) > 0 and len(book.info["sha256"]) == 64 and book.info["plies"] >= 0
    root = book.probe(Game(rules).board.cells)
    assert root is not None and root.value == KNOWN[rules]


def test_seven_by_six_opens_in_the_middle_column() -> None:
    root = shipped(C4_7X6).probe(Game(C4_7X6).board.cells)
    assert root is not None and C4_7X6.coords(root.move)[1] == 3  # d4


def test_seven_by_six_holds_a_winning_answer_to_every_reply_down_to_its_leaves() -> None:
    """The first player's strategy (the perfect bot moving first): under each of its book
    moves every reply of the second player is in the book with a winning move, down to the
    leaves, where the live search proves the rest; nothing outside that strategy."""
    book = shipped(C4_7X6)
    assert book.info["complete"] and book.info["strategies"] == {"first": True, "second": False}
    keys = book.keys
    walked, leaves = set(), 0
    for game in first_player_strategy(book):
        walked.add(keys.key(game.board.cells)[0])
        if game.ply % 2 == 1:  # O to move, after X's book move: each reply is walked as
            # X's position (first_player_strategy asserts it is in the book), and none ends
            # the game: X's move never allows it
            for reply in game.legal_indices():
                child = game.copy()
                child.play_index(reply)
                assert not child.is_over
            continue
        entry = book.probe(game.board.cells)
        assert entry is not None and entry.value == 1, f"X's {game.board.text} is not won"
        after = game.copy()
        after.play_index(entry.move)
        leaves += not after.is_over and book.probe(after.board.cells) is None
    assert walked == set(book.entries) and leaves > 10_000


def is_leaf(book: Book, game: Game) -> bool:
    """Whether the book stops below ``game``'s position: its move leads out of the book (a
    leaf was proven by a fresh solver within the build's leaf nodes, so it is cheap)."""
    entry = book.probe(game.board.cells)
    assert entry is not None
    after = game.copy()
    after.play_index(entry.move)
    return not after.is_over and book.probe(after.board.cells) is None


def descend(book: Book, rng: random.Random, stop_at: int | None) -> Game:
    """A random walk down the book from the empty board, through book positions only, to a
    leaf (or to ply ``stop_at``): no walk over the whole book."""
    game = Game(book.rules)
    while not is_leaf(book, game) and (stop_at is None or game.ply < stop_at):
        children = []
        for index in game.legal_indices():
            child = game.copy()
            child.play_index(index)
            if not child.is_over and book.probe(child.board.cells) is not None:
                children.append(child)
        if not children:
            break
        game = rng.choice(children)
    return game


def sample(book: Book, count: int, seed: int, *, leaves: bool, from_ply: int = 0) -> list[Game]:
    rng = random.Random(seed)
    deepest = book.info["plies"]
    return [
        descend(book, rng, None if leaves else rng.randrange(from_ply, deepest + 1))
        for _ in range(count)
    ]


def reproven(rules: Rules, games: list[Game], book: Book) -> None:
    solver = Solver(rules)
    for game in games:
        entry = book.probe(game.board.cells)
        assert entry is not None
        position = solver.start(game, UNLIMITED)
        assert solver.value(position) == entry.value, game.board.text
        kept = solver.move_value(position, solver.layout.move(entry.move))
        assert kept == entry.value, game.board.text


@pytest.mark.parametrize("rules", PROVABLE, ids=lambda r: r.describe())
def test_sampled_leaves_are_reproven(rules: Rules) -> None:
    book = shipped(rules)
    reproven(rules, sample(book, 8, seed=1, leaves=True), book)


@pytest.mark.slow
@pytest.mark.parametrize("rules", PROVABLE, ids=lambda r: r.describe())
def test_sampled_entries_of_every_depth_are_reproven(rules: Rules) -> None:
    book = shipped(rules)
    reproven(rules, sample(book, 12, seed=2, leaves=False, from_ply=FROM_PLY[rules]), book)


@pytest.mark.parametrize("rules", list(SHIPPED), ids=lambda r: r.describe())
def test_perfect_answers_the_opening_from_the_book(rules: Rules) -> None:
    bot = PerfectBot(random.Random(1), Budget(seconds=None, nodes=1))
    move = bot.choose(Game(rules))
    result = bot.last_result
    assert result is not None and result.proven and result.nodes == 0
    assert result.value is (Verdict.WIN if KNOWN[rules] else Verdict.DRAW)
    root = shipped(rules).probe(Game(rules).board.cells)
    assert root is not None and move == Move(*rules.coords(root.move))


@pytest.mark.parametrize("rules", list(SHIPPED), ids=lambda r: r.describe())
def test_analyze_starts_with_the_book_s_values(rules: Rules) -> None:
    book = shipped(rules)
    root = book.probe(Game(rules).board.cells)
    assert root is not None
    analysis = analyze(Game(rules), Budget(seconds=None, nodes=1))
    best = {entry.move: entry for entry in analysis.moves}[Move(*rules.coords(root.move))]
    assert best.proven and best.value is (Verdict.WIN if KNOWN[rules] else Verdict.DRAW)
