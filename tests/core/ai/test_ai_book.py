"""Opening books: the file format (round trip, checks on loading), keys over symmetries, and
a book built by the solver on small boards: every entry re-proven, every reply to the bot's
move held, and a build cut short resumes to the same book."""

from __future__ import annotations

import pytest

from core import Game, Rules
from core.ai import UNLIMITED, Solver
from core.ai.book import (
    BadBook,
    Book,
    BookBuilder,
    BuildProgress,
    book_keys,
    book_lines,
    decode,
    encode,
)
from core.ai.book.codec import pack, unpack
from core.ai.symmetry import symmetries

SMALL_C4 = Rules(4, 4, 4, gravity=True)  # small enough to build a book in a test
TIC_TAC_TOE = Rules(3, 3, 3)
FIRST_WINS = Rules(4, 4, 3)  # the first player wins: the second's strategy is a lost one


def built(rules: Rules, leaf_nodes: int) -> dict[int, int]:
    return BookBuilder(rules, leaf_nodes=leaf_nodes, table_buckets=1 << 14).build()


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
    done, proven, roles = first.snapshot()
    assert 50 <= len(done) < len(whole)
    again = BookBuilder(
        SMALL_C4, leaf_nodes=40, table_buckets=1 << 14, done=done, proven=proven, roles=roles
    )
    assert again.build() == whole
