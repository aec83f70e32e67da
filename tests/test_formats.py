"""formats: the layouts read and detected, one error line per bad input, a pipe's first answer
before its second puzzle, and writing. Reading bytes as lines of text (binary refused, with its
offset) is textio's, tested in test_textio.py; several sources as one stream is inputs', tested
in test_inputs.py."""

from __future__ import annotations

import contextlib
import io
import select
import subprocess
import sys

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from sudoku_cp.box_directives import box_directive
from sudoku_cp.cli import main
from sudoku_cp.errors import GridParseError
from sudoku_cp.formats import (
    InputPuzzle,
    Layout,
    detect_layout,
    format_grid,
    read_puzzles,
)
from sudoku_cp.grid import Grid
from sudoku_cp.inputs import PuzzleStream

from .conftest import BAEKJOON_2239, BAEKJOON_2239_ANSWER, DATA, EMPTY_4_LEXMIN


def grid(record: InputPuzzle) -> Grid:
    assert record.grid is not None, record.error
    return record.grid


def error(record: InputPuzzle) -> str:
    assert record.error is not None
    return record.error


BAEKJOON_2239_ROWS = "\n".join(BAEKJOON_2239[r * 9 : (r + 1) * 9] for r in range(9)) + "\n"
BAEKJOON_2580_TEXT = (DATA / "examples" / "baekjoon2580.txt").read_text()


# -- the '# box: RxC' declaration ------------------------------------------------------------------

EMPTY_6 = "0" * 36


def test_a_box_declaration_holds_from_its_line_on() -> None:
    text = f"{EMPTY_6}\n{box_directive((3, 2))}\n{EMPTY_6}\n# box: 2X3\n{EMPTY_6}\n"
    _, records = read_puzzles(text)
    assert [grid(record).box for record in records] == [(2, 3), (3, 2), (2, 3)]


def test_a_box_declaration_shapes_grid_blocks_too() -> None:
    rows = "\n".join(["000000"] * 6)
    _, records = read_puzzles(f"# box: 3x2\n{rows}\n")
    assert grid(records[0]).box == (3, 2)


def test_given_box_may_repeat_the_declaration_never_contradict_it() -> None:
    _, records = read_puzzles(f"# box: 3x2\n{EMPTY_6}\n", box=(3, 2))
    assert grid(records[0]).box == (3, 2)
    with pytest.raises(GridParseError) as raised:
        read_puzzles(f"# box: 3x2\n{EMPTY_6}\n", box=(2, 3), source="g6.txt")
    assert raised.value.located() == (
        "g6.txt:1: the file declares box 3x2, --box says 2x3: drop --box, or give the file's shape"
    )


def test_a_malformed_box_declaration_is_an_error_where_it_stands() -> None:
    with pytest.raises(GridParseError) as raised:
        read_puzzles(f"{EMPTY_6}\n# box: 3by2\n{EMPTY_6}\n", source="g6.txt")
    assert raised.value.located().startswith("g6.txt:2: expected a box shape like 2x3")


def test_other_comments_that_mention_a_box_are_comments() -> None:
    _, records = read_puzzles(f"# boxes: 3x2, see below\n#box 3x2\n{EMPTY_6}\n")
    assert grid(records[0]).box == (2, 3)


def test_a_shape_that_fits_no_puzzle_stops_the_source_with_one_error() -> None:
    stream = PuzzleStream(["-"], box=(2, 3), stdin=io.BytesIO((BAEKJOON_2239 + "\n").encode() * 3))
    assert list(stream) == []
    assert stream.errors == [
        "<stdin>:1: a 2x3 box does not fit a 9x9 grid (81 symbols), as --box asks; nothing more "
        "is read from this source"
    ]


def test_a_broken_line_keeps_its_own_error_whatever_the_shape() -> None:
    _, records = read_puzzles("x" + "0" * 35 + "\n", box=(3, 2))
    assert records[0].grid is None and "unknown symbol 'x'" in error(records[0])


def test_grid_layout_is_detected() -> None:
    layout, records = read_puzzles(BAEKJOON_2239_ROWS)
    assert layout is Layout.GRID
    assert [grid(r).to_line() for r in records] == [BAEKJOON_2239]
    assert records[0].line == 1


def test_spaced_layout_is_detected() -> None:
    layout, records = read_puzzles(BAEKJOON_2580_TEXT)
    assert layout is Layout.SPACED
    assert grid(records[0]).to_line().startswith("035469278")


def test_line_layout_with_comments_blank_lines_and_many_puzzles() -> None:
    text = f"# two puzzles\n\n{BAEKJOON_2239}\n   \n{'.' * 81}\n"
    layout, records = read_puzzles(text, source="set.txt")
    assert layout is Layout.LINE
    assert [(r.index, r.line) for r in records] == [(0, 3), (1, 5)]
    assert records[1].grid == Grid.empty(9)


def test_16_symbols_per_line_is_a_4x4_puzzle_unless_16_rows() -> None:
    layout, records = read_puzzles("1234000000000000\n")
    assert layout is Layout.LINE and grid(records[0]).size == 4
    layout, records = read_puzzles(("0" * 16 + "\n") * 16)
    assert layout is Layout.GRID and grid(records[0]).size == 16


def test_input_format_overrides_detection() -> None:
    layout, records = read_puzzles(("0" * 16 + "\n") * 16, layout=Layout.LINE)
    assert layout is Layout.LINE and len(records) == 16


def test_spaced_holds_values_above_nine() -> None:
    rows = [[0] * 16 for _ in range(16)]
    rows[0][0] = 16
    text = "\n".join(" ".join(map(str, row)) for row in rows)
    _, records = read_puzzles(text)
    assert grid(records[0]).values[0] == 16


def test_several_grids_in_one_input() -> None:
    _, records = read_puzzles(BAEKJOON_2239_ROWS + "\n" + BAEKJOON_2239_ROWS)
    assert [r.line for r in records] == [1, 11]


def test_rectangular_boxes_with_box_option() -> None:
    _, records = read_puzzles("0" * 36 + "\n", box=(3, 2))
    assert grid(records[0]).box == (3, 2)
    _, records = read_puzzles("0" * 36 + "\n")
    assert grid(records[0]).box == (2, 3)


# -- one test per kind of bad input -------------------------------------------------------------


def test_wrong_row_count() -> None:
    text = "\n".join(BAEKJOON_2239_ROWS.splitlines()[:8])
    with pytest.raises(
        GridParseError, match=r"^<stdin>:1: expected 9 rows for a 9x9 puzzle, got 8"
    ):
        read_puzzles(text)


def test_wrong_row_length() -> None:
    rows = BAEKJOON_2239_ROWS.splitlines()
    rows[3] += "1"
    with pytest.raises(GridParseError, match=r"^f.txt:4: expected 9 values in this row"):
        read_puzzles("\n".join(rows), source="f.txt")


def test_unknown_character_with_column() -> None:
    rows = BAEKJOON_2239_ROWS.splitlines()
    rows[2] = rows[2][:4] + "?" + rows[2][5:]
    with pytest.raises(GridParseError, match=r"^<stdin>:3:5: unknown symbol '\?'"):
        read_puzzles("\n".join(rows))


def test_value_above_size_in_spaced_layout() -> None:
    text = BAEKJOON_2580_TEXT.replace("2 5 8 3 9 4 7 6 0", "2 5 8 3 9 4 7 6 10")
    with pytest.raises(GridParseError, match=r"^<stdin>:9:9: value 10 is above 9"):
        read_puzzles(text)


def test_value_above_size_in_line_layout_is_a_bad_record() -> None:
    _, records = read_puzzles("5000000000000000\n1234000000000000\n", source="x")
    assert records[0].grid is None and error(records[0]).startswith("x:1:1: symbol '5'")
    assert records[1].grid is not None  # the batch goes on


def test_prime_size() -> None:
    with pytest.raises(GridParseError, match="no Sudoku has rows of 7 values \\(it is prime\\)"):
        read_puzzles("1234567\n" * 7)


def test_not_a_number_in_spaced_layout() -> None:
    with pytest.raises(GridParseError, match=r":1:3: expected a number, got 'x'"):
        read_puzzles("1 x 3 4\n" * 4)


def test_empty_input() -> None:
    with pytest.raises(GridParseError, match="empty input"):
        read_puzzles("\n  \n# only a comment\n")


def test_ten_megabyte_line_gives_a_short_error() -> None:
    _, records = read_puzzles("1" * 10_000_000)
    assert records[0].grid is None
    assert len(error(records[0])) < 200 and "10000000" in error(records[0])


# -- writing ------------------------------------------------------------------------------------


def test_format_grid_layouts() -> None:
    grid = Grid.parse("1234341221434321")
    assert format_grid(grid, "grid") == "1234\n3412\n2143\n4321"
    assert format_grid(grid, "spaced") == "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1"
    assert format_grid(grid, "line") == "1234341221434321"


SHAPES = [(4, (2, 2)), (6, (2, 3)), (9, (3, 3)), (16, (4, 4)), (25, (5, 5))]


@given(st.sampled_from(SHAPES), st.sampled_from(list(Layout)), st.data())
def test_write_then_read_round_trip(
    shape: tuple[int, tuple[int, int]], layout: Layout, data: st.DataObject
) -> None:
    size, box = shape
    values = data.draw(st.lists(st.integers(0, size), min_size=size * size, max_size=size * size))
    grid = Grid.from_values(values, box=box)
    text = format_grid(grid, layout)
    read_layout, records = read_puzzles(text, layout=layout, box=box)
    assert read_layout is layout
    assert [r.grid for r in records] == [grid]


# -- detection never splits one square block -------------------------------------------------------


def test_36_lines_of_36_zeros_are_one_36x36_grid_never_36_puzzles() -> None:
    layout, records = read_puzzles(("0" * 36 + "\n") * 36)
    assert layout is Layout.GRID
    assert [record.grid for record in records] == [Grid.empty(36)]


def test_81_lines_of_81_zeros_are_refused_in_one_line_never_81_puzzles() -> None:
    text = ("0" * 81 + "\n") * 81
    message = (
        "<stdin>:1: no Sudoku has rows of 81 values (81 is above the largest size, 64): "
        "sizes are 4, 6, 8, 9, 10, 12, 16, 25, ... up to 64"
    )
    with pytest.raises(GridParseError) as caught:
        read_puzzles(text)
    assert str(caught.value) == message
    result = CliRunner().invoke(main, ["solve"], input=text)
    assert result.exit_code == 2
    assert (result.stdout, result.stderr) == ("", f"Error: {message}\n")


def test_fewer_lines_than_a_square_block_are_one_puzzle_each() -> None:
    layout, records = read_puzzles(("0" * 36 + "\n") * 35)
    assert layout is Layout.LINE
    assert [record.grid for record in records] == [Grid.empty(6)] * 35


def test_a_square_block_with_a_row_that_repeats_a_value_is_many_puzzles() -> None:
    rows = [(EMPTY_4_LEXMIN, 1)] + [("0" * 16, number) for number in range(2, 17)]
    assert detect_layout([(number, line) for line, number in rows]) is Layout.LINE
    assert detect_layout([(number, "0" * 16) for number in range(1, 17)]) is Layout.GRID


# -- one line per bad input ------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, where, token",
    [
        ("1 \u00b2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1\n", "1:3", "\u00b2"),  # superscript two
        ("1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 \u2081\n", "4:7", "\u2081"),  # subscript one
        ("1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 \uff11\n", "4:7", "\uff11"),  # full-width one
    ],
)
def test_digits_that_are_not_ascii_are_one_error_line(text: str, where: str, token: str) -> None:
    message = f"<stdin>:{where}: expected a number, got {token!r}"
    with pytest.raises(GridParseError) as caught:
        read_puzzles(text)
    assert str(caught.value) == message
    result = CliRunner().invoke(main, ["solve"], input=text)
    assert result.exit_code == 2
    assert (result.stdout, result.stderr) == ("", f"Error: {message}\n")


def ask(process: subprocess.Popen[str], puzzle: str) -> str:
    """Write one puzzle to a running solve and wait (at most 10 s) for its answer."""
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(puzzle + "\n")
    process.stdin.flush()
    ready, _, _ = select.select([process.stdout], [], [], 10)
    if not ready:
        process.kill()
        pytest.fail("no answer before the next puzzle was written")
    return process.stdout.readline().strip()


@pytest.mark.parametrize(
    "layout", [pytest.param(["--input-format", "line"], id="line"), pytest.param([], id="detected")]
)
def test_solve_answers_a_pipe_puzzle_by_puzzle(layout: list[str]) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "sudoku_cp", "solve", *layout],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert ask(process, BAEKJOON_2239) == BAEKJOON_2239_ANSWER
        assert ask(process, "0" * 16) == EMPTY_4_LEXMIN
        assert process.stdin is not None
        process.stdin.close()
        assert process.wait(timeout=20) == 0
    finally:
        if process.poll() is None:
            process.kill()
        for pipe in (process.stdin, process.stdout, process.stderr):
            with contextlib.suppress(OSError):
                if pipe is not None:
                    pipe.close()
        process.wait()


def test_a_bad_line_is_kept_as_written_without_quotes() -> None:
    """The record of a line that is not a puzzle holds the line itself, whole (JSON writers
    quote it once); the error quotes it."""
    _, records = read_puzzles("12345\n" + "7" * 90 + "\n")
    assert records[0].text == "12345" and records[0].grid is None
    assert "'12345'" in str(records[0].error)
    assert records[1].text == "7" * 90
