"""Opening books: the file format (round trip, checks on loading), keys over symmetries, and
a book built by the solver on small boards: every entry re-proven, every reply to the bot's
move held, a build cut short resumes to the same book (and refuses another side's progress),
and a book of the first player's strategy alone serves the bot moving first as well as the
whole book does."""

from __future__ import annotations

import random

import pytest

from core import Game, Rules
from core.ai import UNLIMITED, Budget, PerfectBot, Solver
from core.ai.book import (
    BadBook,
    Book,
    BookBuilder,
    BookSide,
    BuildProgress,
    SideMismatch,
    book_keys,
    book_lines,
    decode,
    encode,
)
from core.ai.book.codec import pack, unpack
from core.ai.symmetry import symmetries
from tests.core.ai.book_walks import first_player_strategy

SMALL_C4 = Rules(4, 4, 4, gravity=True)  # small enough to build a book in a test
TIC_TAC_TOE = Rules(3, 3, 3)
FIRST_WINS = Rules(4, 4, 3)  # the first player wins: the second's strategy is a lost one


def built(rules: Rules, leaf_nodes: int, side: BookSide = BookSide.BOTH) -> dict[int, int]:
    return BookBuilder(rules, side=side, leaf_nodes=leaf_nodes, table_buckets=1 << 14).build()


@pytest.fixture(scope="module")
def small_book() -> Book:
    return Book(SMALL_C4, built(SMALL_C4, 40), {})


# -- the file format -----------------------------------------------------------------------


def test_entries_pack_a_value_and_a_move() -> None:
    for value in (-1, 0, 1):
        for move in (0, 17, 255):
            assert unpack(pack(value, move)) == (value, move)


def test_a_book_round_trips_through_its_file(small_book: Book) -> None:
    data = encode(SMALL_C4, small_book.entries, {"leaf_nodes": 40})
    back = decode(data, SMALL_C4)
    assert back.rules == SMALL_C4 and back.entries == small_book.entries
    assert back.info["leaf_nodes"] == 40 and len(back.info["sha256"]) == 64


@pytest.mark.parametrize(
    ("damage", "message"),
    [
        (lambda d: b"something else\n" + d, "not a book file"),
        (lambda d: d.replace(b"tictactoe-book 1", b"tictactoe-book 9", 1), "version '9'"),
        (lambda d: d[:-1] + bytes([d[-1] ^ 1]), "checksum does not match"),
        (lambda d: d.replace(b'"entries": ', b'"entries": 1', 1), "records, its header says"),
        (lambda d: d.replace(b'"rules"', b'"rulez"', 1), "header is damaged"),
    ],
)
def test_a_damaged_book_is_refused(small_book: Book, damage, message: str) -> None:  # type: ignore[no-untyped-def]
    data = damage(encode(SMALL_C4, small_book.entries, {}))
    with pytest.raises(BadBook, match=message):
        decode(data)


def test_a_book_for_other_rules_is_refused(small_book: Book) -> None:
    data = encode(SMALL_C4, small_book.entries, {})
    with pytest.raises(BadBook, match="the book is for 4×4 k=4 gravity, not 3×3"):
        decode(data, TIC_TAC_TOE)


# -- keys ----------------------------------------------------------------------------------


def test_symmetric_positions_share_a_key_and_moves_map_back() -> None:
    keys = book_keys(TIC_TAC_TOE)
    game = Game.from_position(TIC_TAC_TOE, "X../.O./...")
    key, sym = keys.key(game.board.cells)
    for perm in symmetries(TIC_TAC_TOE):
        image = [0] * 9
        for index, code in enumerate(game.board.cells):
            image[perm[index]] = code
        assert keys.key(image)[0] == key
    for index in range(9):
        assert keys.from_keyed(keys.to_keyed(index, sym), sym) == index
    other = Game.from_position(TIC_TAC_TOE, ".X./.O./...")
    assert keys.key(other.board.cells)[0] != key


# -- building ------------------------------------------------------------------------------


def test_every_entry_is_what_the_solver_proves(small_book: Book) -> None:
    solver = Solver(SMALL_C4)
    lines = list(book_lines(small_book))
    assert len(lines) == len(small_book)  # every entry is reached from the empty board
    for _, _, game in lines:
        entry = small_book.probe(game.board.cells)
        assert entry is not None
        position = solver.start(game, UNLIMITED)
        assert solver.value(position) == entry.value
        assert solver.move_value(position, solver.layout.move(entry.move)) == entry.value


def test_the_book_holds_every_reply_to_the_bots_move(small_book: Book) -> None:
    """Following the book's move, each opponent reply is a book position or a leaf's child
    (past the leaves the live search takes over), for the bot as X and as O."""
    leaves = 0
    for _, _, game in book_lines(small_book):
        entry = small_book.probe(game.board.cells)
        assert entry is not None
        after = game.copy()
        after.play_index(entry.move)
        if after.is_over:
            continue
        known = small_book.move_values(after.board.cells)
        if len(known) < len(after.legal_indices()):
            leaves += 1  # a leaf: proven within the leaf budget, not followed further
        else:
            assert max(known.values()) == -entry.value
    assert 0 < leaves < len(small_book)


def test_a_lost_strategy_is_built_where_the_opponent_wins_at_once() -> None:
    """The bot moving second on a board the first player wins meets positions where the
    opponent can complete a line: that move's value is the opponent's win, not its loss."""
    book = Book(FIRST_WINS, built(FIRST_WINS, 10), {})
    solver = Solver(FIRST_WINS)
    lines = list(book_lines(book))
    assert len(lines) == len(book) > 50
    for _, _, game in lines:
        entry = book.probe(game.board.cells)
        assert entry is not None
        assert solver.value(solver.start(game, UNLIMITED)) == entry.value


def test_a_leaf_budget_big_enough_makes_the_root_a_leaf() -> None:
    entries = built(TIC_TAC_TOE, 1_000_000)
    book = Book(TIC_TAC_TOE, entries, {})
    root = book.probe(Game(TIC_TAC_TOE).board.cells)
    assert root is not None and root.value == 0
    # the root is a leaf as X's position, and is expanded as O's opponent position
    assert len(book.move_values(Game(TIC_TAC_TOE).board.cells)) == 9


def test_a_build_cut_short_resumes_to_the_same_book() -> None:
    whole = built(SMALL_C4, 40)

    class Stop(Exception):
        pass

    def stop_after_50(progress: BuildProgress) -> None:
        if progress.done >= 50:
            raise Stop

    first = BookBuilder(SMALL_C4, leaf_nodes=40, table_buckets=1 << 14, on_progress=stop_after_50)
    with pytest.raises(Stop):
        first.build()
    snapshot = first.snapshot()
    assert snapshot.side is BookSide.BOTH and 50 <= len(snapshot.done) < len(whole)
    again = BookBuilder(SMALL_C4, leaf_nodes=40, table_buckets=1 << 14, resume=snapshot)
    assert again.build() == whole


@pytest.mark.parametrize("side", [BookSide.SECOND, BookSide.BOTH])
def test_a_build_refuses_the_progress_of_another_side(side: BookSide) -> None:
    first = BookBuilder(TIC_TAC_TOE, side=BookSide.FIRST, leaf_nodes=40)
    first.build()
    with pytest.raises(SideMismatch, match="of side 'first', not '" + side.value) as raised:
        BookBuilder(TIC_TAC_TOE, side=side, leaf_nodes=40, resume=first.snapshot())
    assert raised.value.code == "book_side_mismatch" and raised.value.saved is BookSide.FIRST


# -- one side ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def first_side_book() -> Book:
    return Book(FIRST_WINS, built(FIRST_WINS, 10, BookSide.FIRST), {})


@pytest.fixture(scope="module")
def whole_book() -> Book:
    return Book(FIRST_WINS, built(FIRST_WINS, 10), {})


def test_a_first_side_book_holds_every_reply_of_o_under_each_x_move(
    first_side_book: Book,
) -> None:
    leaves = 0
    for game in first_player_strategy(first_side_book):
        if game.ply % 2 == 1:  # O to move, after X's book move: each of O's replies is in
            continue  # the book as X's position (first_player_strategy asserts it)
        entry = first_side_book.probe(game.board.cells)
        assert entry is not None and entry.value == 1  # X wins 4×4 k=3
        after = game.copy()
        after.play_index(entry.move)
        leaves += not after.is_over and first_side_book.probe(after.board.cells) is None
    assert leaves > 0


def test_a_first_side_book_holds_nothing_of_o_s_own_strategy(
    first_side_book: Book, whole_book: Book
) -> None:
    keys = book_keys(FIRST_WINS)
    strategy = {
        keys.key(game.board.cells)[0]: game for game in first_player_strategy(first_side_book)
    }
    assert set(strategy) == set(first_side_book.entries)
    # the whole book holds O's strategy too, and X's the same: the same values, and X's
    # moves (O's positions there hold O's own move, not only the best reply)
    assert len(whole_book) > len(first_side_book)
    for game in strategy.values():
        alone, whole = first_side_book.probe(game.board.cells), whole_book.probe(game.board.cells)
        assert alone is not None and whole is not None and alone.value == whole.value
        assert game.ply % 2 == 1 or alone.move == whole.move


def perfect_first_results(book: Book, monkeypatch: pytest.MonkeyPatch) -> tuple[set[str], int]:
    """Every game the perfect bot, moving first from ``book``, plays against every line of
    O's replies: the results for X, and how many of X's moves the book answered."""
    monkeypatch.setattr("core.ai.perfect.book_for", lambda rules: book)
    results: set[str] = set()
    from_book = 0
    stack = [Game(FIRST_WINS)]
    while stack:
        game = stack.pop()
        bot = PerfectBot(random.Random(0), Budget(seconds=None, nodes=50_000))
        from_book += book.probe(game.board.cells) is not None
        move = bot.choose(game)
        result = bot.last_result
        assert result is not None and result.proven
        game.play(move)
        if game.is_over:
            outcome = game.outcome
            assert outcome is not None
            results.add("win" if outcome.winner == "X" else "draw or loss")
            continue
        for reply in game.legal_indices():
            child = game.copy()
            child.play_index(reply)
            if child.is_over:
                results.add("draw or loss")
            else:
                stack.append(child)
    return results, from_book


def test_the_perfect_bot_moving_first_wins_from_a_first_side_book_as_from_the_whole(
    first_side_book: Book, whole_book: Book, monkeypatch: pytest.MonkeyPatch
) -> None:
    results, from_book = perfect_first_results(first_side_book, monkeypatch)
    assert results == {"win"} and from_book > 10
    assert perfect_first_results(whole_book, monkeypatch)[0] == results
