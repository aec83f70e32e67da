"""box_directives: the box shape in force at each line of a source (`--box`, or the last
`# box: RxC` line above it), the content lines with those declarations taken as met, and one
error when the shape does not fit the puzzles."""

from __future__ import annotations

import pytest

from sudoku_cp.box_directives import BoxDirectives, box_directive, content_lines
from sudoku_cp.errors import GridParseError

EMPTY_6 = "0" * 36


def test_content_lines_skip_blanks_and_comments_and_take_the_declarations() -> None:
    lines = enumerate(["# a comment", "", f"  {EMPTY_6}  ", box_directive((3, 2)), EMPTY_6], 1)
    boxes = BoxDirectives(None, "g6.txt")
    assert list(content_lines(lines, boxes)) == [(3, EMPTY_6), (5, EMPTY_6)]
    assert boxes.declared == [(4, (3, 2))]
    assert [boxes.shape_at(number) for number in (3, 5)] == [None, (3, 2)]


def test_the_last_declaration_above_a_puzzle_holds_and_box_overrides_none() -> None:
    boxes = BoxDirectives(None, "g6.txt")
    boxes.declare(1, "3x2")
    boxes.declare(4, "2X3")
    assert [boxes.shape_at(number) for number in (1, 2, 5)] == [None, (3, 2), (2, 3)]
    given = BoxDirectives((3, 2), "g6.txt")
    given.declare(1, "3x2")  # the same shape as --box: taken
    assert given.shape_at(5) == (3, 2)


def test_a_declaration_that_box_contradicts_or_that_is_no_shape_is_one_located_error() -> None:
    with pytest.raises(GridParseError) as raised:
        BoxDirectives((3, 2), "g6.txt").declare(2, "2x3")
    assert raised.value.located() == (
        "g6.txt:2: the file declares box 2x3, --box says 3x2: drop --box, or give the file's shape"
    )
    with pytest.raises(GridParseError) as raised:
        BoxDirectives(None, "g6.txt").declare(7, "3by2")
    assert raised.value.located().startswith("g6.txt:7: expected a box shape like 2x3")


def test_a_shape_that_fits_no_puzzle_stops_the_source() -> None:
    boxes = BoxDirectives((2, 3), "<stdin>")
    failed = GridParseError("a 2x3 box does not fit a 9x9 grid (81 symbols)")
    with pytest.raises(GridParseError) as raised:
        boxes.check_fits("0" * 81, 1, failed)
    assert raised.value.located() == (
        "<stdin>:1: a 2x3 box does not fit a 9x9 grid (81 symbols), as --box asks; nothing more "
        "is read from this source"
    )
    boxes.check_fits("x" * 81, 2, failed)  # broken whatever the shape: its own error says so
    BoxDirectives(None, "<stdin>").check_fits("0" * 81, 1, failed)  # no shape in force
