"""The solver's bitboard equals ``core.Game`` on every variant (hypothesis): legal moves,
wins, the cells that would complete a line, lines still possible, draws, misère, gravity,
3D; and its symmetry images are the board's symmetries."""

from __future__ import annotations

from hypothesis import given, reject
from hypothesis import strategies as st

from core import EndReason, Game, Rules
from core.ai.bitboard import bit_layout
from core.ai.symmetry import symmetries
from core.geometry import geometry
from tests.core.engine_helpers import PROPERTY_SETTINGS, VARIANTS, choice_lists, small_rules

two_player_variants = sorted(name for name, rules in VARIANTS.items() if rules.players == 2)
rules_of_two = st.one_of(
    small_rules().filter(lambda r: r.players == 2),
    st.sampled_from(two_player_variants).map(VARIANTS.__getitem__),
)


def bits(rules: Rules, indices: list[int] | set[int]) -> int:
    layout = bit_layout(rules)
    return sum(layout.move(i) for i in indices)


def completing_cells(rules: Rules, cells: list[int], code: int) -> set[int]:
    """Brute force: the empty cells where ``code`` would complete a k-window."""
    found = set()
    for window in geometry(rules).windows:
        empty = [c for c in window if not cells[c]]
        if len(empty) == 1 and all(cells[c] == code for c in window if c != empty[0]):
            found.add(empty[0])
    return found


def open_for(rules: Rules, cells: list[int], code: int) -> bool:
    """Brute force: some k-window holds no mark of the other player."""
    return any(all(cells[c] in (0, code) for c in window) for window in geometry(rules).windows)


@PROPERTY_SETTINGS
@given(rules_of_two, choice_lists(120))
def test_the_bitboard_follows_the_engine_move_by_move(rules: Rules, picks: list[int]) -> None:
    layout = bit_layout(rules)
    game = Game(rules)
    me, mask = layout.bits_of_cells(game.board.cells)
    for pick in picks:
        cells = list(game.board.cells)
        code = game.ply % 2 + 1
        empty = layout.board & ~mask
        assert (me, mask) == layout.bits_of_cells(cells)
        assert layout.playable(mask) == bits(rules, game.legal_indices())
        for player, marks in ((code, me), (3 - code, me ^ mask)):
            assert layout.winning_cells(marks, empty) == bits(
                rules, completing_cells(rules, cells, player)
            )
            assert layout.has_line(layout.board & ~(mask ^ marks)) == open_for(rules, cells, player)
        legal = game.legal_indices()
        index = legal[pick % len(legal)]
        move = layout.move(index)
        assert layout.index(move) == index
        game.play_index(index)
        mover = me | move
        me, mask = me ^ mask, mask | move  # the child: the opponent moves next
        outcome = game.outcome
        assert layout.won(mover) == (outcome is not None and outcome.reason is EndReason.LINE)
        if outcome is not None:
            if outcome.reason is EndReason.BOARD_FULL:
                assert mask == layout.board and layout.playable(mask) == 0
            if outcome.reason is EndReason.NO_LINE_LEFT:
                assert not layout.has_line(layout.board & ~me)
                assert not layout.has_line(layout.board & ~(me ^ mask))
            if rules.misere and outcome.reason is EndReason.LINE:
                assert outcome.loser == game.rules.marks[code - 1]
            break
        if rules.early_draw:  # the game goes on only while someone can still complete a line
            assert layout.has_line(layout.board & ~me) or layout.has_line(layout.board & ~mover)


@PROPERTY_SETTINGS
@given(rules_of_two, choice_lists(30))
def test_symmetry_images_are_the_board_symmetries(rules: Rules, picks: list[int]) -> None:
    if rules.cells > 64:
        reject()  # the images are checked cell by cell; small boards say it all
    layout = bit_layout(rules)
    game = Game(rules)
    for pick in picks:
        if game.is_over:
            break
        legal = game.legal_indices()
        game.play_index(legal[pick % len(legal)])
    cells = game.board.cells
    _, mask = layout.bits_of_cells(cells)
    for perm, tables in zip(symmetries(rules), layout.symmetry_tables(), strict=True):
        image = [0] * len(cells)
        for index, code in enumerate(cells):
            image[perm[index]] = code
        assert layout.image(tables, mask) == layout.bits_of_cells(image)[1]
        assert layout.image(tables, bits(rules, [i for i, c in enumerate(cells) if c == 1])) == (
            bits(rules, [i for i, c in enumerate(image) if c == 1])
        )
