"""Which book positions `python -m bench.book_pons` gives Pons' solver: every one from the
empty board, or those from a ply on, or a seeded sample of them (what a board as large as
Connect Four 7×6 needs), each as its line of columns with the book's value."""

from __future__ import annotations

import pytest

from bench.book_pons import applies, book_positions
from core import Game, Rules
from core.ai.book import Book, BookBuilder

C4_5X4 = Rules(4, 5, 4, gravity=True)


@pytest.fixture(scope="module")
def book() -> Book:
    return Book(C4_5X4, BookBuilder(C4_5X4, leaf_nodes=200).build(), {})


def replayed(rules: Rules, line: str) -> Game:
    game = Game(rules)
    for column in line:
        game.play_index(
            next(i for i in game.legal_indices() if rules.coords(i)[1] == int(column) - 1)
        )
    return game


def test_every_position_comes_shallowest_first_with_its_book_value(book: Book) -> None:
    assert applies(C4_5X4)
    found = book_positions(book)
    assert len(found) == len(book) > 1_000  # every entry is reached from the empty board
    assert found[0] == ("", 0, 0)  # the empty board, a draw
    assert [ply for _, ply, _ in found] == sorted(ply for _, ply, _ in found)
    for line, ply, value in found:
        game = replayed(C4_5X4, line)
        entry = book.probe(game.board.cells)
        assert len(line) == ply == game.ply and entry is not None and entry.value == value


def test_a_sample_from_a_ply_on_is_seeded_and_sorted(book: Book) -> None:
    deep = book_positions(book, min_ply=8)
    assert deep and min(ply for _, ply, _ in deep) == 8
    drawn = book_positions(book, min_ply=8, sample=40, seed=3)
    assert len(drawn) == 40 and set(drawn) <= set(deep)
    assert [ply for _, ply, _ in drawn] == sorted(ply for _, ply, _ in drawn)
    assert drawn == book_positions(book, min_ply=8, sample=40, seed=3)
    assert drawn != book_positions(book, min_ply=8, sample=40, seed=4)
    assert book_positions(book, min_ply=8, sample=len(deep) + 5) == deep
