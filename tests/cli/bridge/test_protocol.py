"""The engine protocol's lines, both ways (cli.bridge.protocol), and the project's own engine
answering them in memory (cli.bridge.builtin_engine.serve)."""

from __future__ import annotations

import io

import pytest

from cli.bridge.builtin_engine import serve
from cli.bridge.protocol import (
    HELLO,
    ClockTimes,
    Handshake,
    RulesFilter,
    go_line,
    parse_cell,
    parse_go,
    parse_position,
    position_line,
)
from core import Game, Move, Rules

CLASSIC = Rules()
CONNECT_FOUR = Rules(rows=6, cols=7, k=4, gravity=True)
CUBE = Rules(rows=4, cols=4, layers=4)


def test_a_position_names_every_rule_the_board_the_turn_and_the_moves() -> None:
    game = Game(CLASSIC)
    game.play(Move(1, 1))
    game.play(Move(0, 2))
    assert position_line(game) == (
        "position rules rows=3 cols=3 k=3 gravity=false misere=false players=2 layers=1 "
        "early_draw=false board ..O/.X./... turn X moves 1,1 0,2"
    )


@pytest.mark.parametrize("rules", [CLASSIC, CONNECT_FOUR, CUBE, Rules(rows=5, cols=5, players=3)])
def test_a_position_reads_back_as_the_same_game(rules: Rules) -> None:
    game = Game(rules)
    for _ in range(4):
        game.play(game.legal_moves()[-1])
    again = parse_position(position_line(game))
    assert again.rules == rules
    assert again.history == game.history
    assert again.board.text == game.board.text


def test_a_position_from_a_set_up_board_is_loaded_from_its_board() -> None:
    game = Game.from_position(CLASSIC, "X../.O./...")
    assert parse_position(position_line(game)).board.text == "X../.O./..."


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("position rules rows=3 board ... moves", "needs rules, board, turn and moves"),
        ("position board .../.../... rules rows=3 turn X moves", "not a position"),
        ("position rules rows=3 cols=3 board .../.../... turn O moves", "turn O does not fit"),
        ("position rules rows=3 cols=3 colour=red board .../.../... turn X moves", "colour"),
        ("position rules rows=3 cols=3 gravity=yes board .../.../... turn X moves", "gravity"),
        ("position rules rows=3 cols=3 board .../.../... turn X moves 1,1 1,1", "taken"),
        ("position rules rows=3 cols=3 board .../.../... turn X moves 1;1", "row,col"),
        ("position rules rows=3 cols=3", "needs rules, board, turn and moves"),
    ],
)
def test_a_bad_position_is_a_value_error_saying_why(line: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        parse_position(line)


def test_a_cell_is_row_col_in_2d_and_row_col_layer_in_3d() -> None:
    assert parse_cell("2,1", CLASSIC) == Move(2, 1)
    assert parse_cell("2,1,3", CUBE) == Move(2, 1, 3)
    for bad in ("2", "2,1", "a,b,c", "-1,0,0", "1,,2"):
        with pytest.raises(ValueError, match="row,col,layer"):
            parse_cell(bad, CUBE)


def test_go_carries_the_move_time_and_the_clock_when_there_is_one() -> None:
    assert go_line(0.95) == "go movetime 0.950"
    clock = ClockTimes({"X": 57.5, "O": 58.25}, 2.0)
    line = go_line(0.95, clock)
    assert line == "go movetime 0.950 clock X=57.500 O=58.250 inc 2.000"
    assert parse_go(line).clock == clock
    assert parse_go("go movetime 1").movetime == 1.0
    for bad in ("go", "go movetime soon", "go movetime -1", "go movetime 1 clock X=1", "go 1"):
        with pytest.raises(ValueError):
            parse_go(bad)


def test_supports_lines_are_ranges_of_rules_and_a_bare_one_takes_everything() -> None:
    line = RulesFilter.parse(["players=2", "rows=3-7", "gravity=false"])
    assert str(line) == "supports players=2 rows=3-7 gravity=false"
    assert line.matches(CLASSIC)
    assert not line.matches(CONNECT_FOUR)  # gravity
    assert not line.matches(Rules(rows=9, cols=9, k=5))  # rows
    assert RulesFilter.parse([]).matches(CUBE)
    for bad in (["rows=7-3"], ["colour=red"], ["players"], ["gravity=1"], ["rows=three"]):
        with pytest.raises(ValueError):
            RulesFilter.parse(bad)


def test_a_handshake_needs_a_name_a_version_and_a_supports_line() -> None:
    handshake = Handshake()
    for line in ("info hello", "id name Walker 2", "id version 0.3", "supports players=2"):
        assert handshake.feed(line) is None
    info = handshake.feed("ready")
    assert info is not None
    assert (info.name, info.version) == ("Walker 2", "0.3")
    assert info.plays(CLASSIC) and not info.plays(Rules(rows=5, cols=5, players=3))
    with pytest.raises(ValueError, match="without id version"):
        incomplete = Handshake()
        incomplete.feed("id name x")
        incomplete.feed("supports")
        incomplete.feed("ready")
    with pytest.raises(ValueError, match="without a supports line"):
        unsure = Handshake()
        unsure.feed("id name x")
        unsure.feed("id version 1")
        unsure.feed("ready")
    with pytest.raises(ValueError, match="refused the handshake: protocol 2 only"):
        Handshake().feed("error protocol 2 only")


def _talk(level: str, *lines: str) -> list[str]:
    out = io.StringIO()
    assert serve(level, 7, io.StringIO("".join(f"{line}\n" for line in lines)), out) == 0
    return out.getvalue().splitlines()


def test_the_projects_engine_shakes_hands_and_answers_a_legal_best_move() -> None:
    game = Game(CLASSIC)
    game.play(Move(0, 0))
    game.play(Move(1, 1))
    game.play(Move(0, 1))
    answer = _talk("perfect", HELLO, position_line(game), go_line(0.5), "quit", "go movetime 1")
    assert answer[:4] == ["id name tictactoe perfect", answer[1], "supports players=2", "ready"]
    assert answer[4:] == ["bestmove 0,2"]  # the only move that does not lose; nothing after quit


def test_the_projects_engine_names_the_layer_in_3d_and_says_what_is_wrong() -> None:
    game = Game(CUBE)
    answer = _talk(
        "easy", "tttengine 2", "go movetime 1", "position rules rows=3", position_line(game),
        "go movetime 0.2", "hello",
    )  # fmt: skip
    assert answer[0].startswith("error this engine speaks protocol 1")
    assert answer[1] == "error go without a position"
    assert answer[2].startswith("error bad position")
    assert answer[3].startswith("bestmove ") and len(answer[3].split(",")) == 3
    game.play(parse_cell(answer[3].removeprefix("bestmove "), CUBE))
    assert answer[4] == "info ignored 'hello': not a command of protocol 1"
