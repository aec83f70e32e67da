import pytest
from hypothesis import given, strategies as st

from sudoku_cp.errors import GridParseError
from sudoku_cp.formats import (Layout, decode_input, format_grid, load_puzzles, read_puzzles,
                               read_records)
from sudoku_cp.grid import Grid

from .conftest import BAEKJOON_2239, DATA

BAEKJOON_2239_ROWS = "\n".join(BAEKJOON_2239[r * 9:(r + 1) * 9] for r in range(9)) + "\n"
BAEKJOON_2580_TEXT = (DATA / "examples" / "baekjoon2580.txt").read_text()


def test_grid_layout_is_detected():
    layout, records = read_puzzles(BAEKJOON_2239_ROWS)
    assert layout is Layout.GRID
    assert [r.grid.to_line() for r in records] == [BAEKJOON_2239]
    assert records[0].line == 1


def test_spaced_layout_is_detected():
    layout, records = read_puzzles(BAEKJOON_2580_TEXT)
    assert layout is Layout.SPACED
    assert records[0].grid.to_line().startswith("035469278")


def test_line_layout_with_comments_blank_lines_and_many_puzzles():
    text = f"# two puzzles\n\n{BAEKJOON_2239}\n   \n{'.' * 81}\n"
    layout, records = read_puzzles(text, source="set.txt")
    assert layout is Layout.LINE
    assert [(r.index, r.line) for r in records] == [(0, 3), (1, 5)]
    assert records[1].grid == Grid.empty(9)


def test_16_symbols_per_line_is_a_4x4_puzzle_unless_16_rows():
    layout, records = read_puzzles("1234000000000000\n")
    assert layout is Layout.LINE and records[0].grid.size == 4
    layout, records = read_puzzles(("0" * 16 + "\n") * 16)
    assert layout is Layout.GRID and records[0].grid.size == 16


def test_input_format_overrides_detection():
    layout, records = read_puzzles(("0" * 16 + "\n") * 16, layout=Layout.LINE)
    assert layout is Layout.LINE and len(records) == 16


def test_spaced_holds_values_above_nine():
    rows = [[0] * 16 for _ in range(16)]
    rows[0][0] = 16
    text = "\n".join(" ".join(map(str, row)) for row in rows)
    _, records = read_puzzles(text)
    assert records[0].grid.values[0] == 16


def test_several_grids_in_one_input():
    _, records = read_puzzles(BAEKJOON_2239_ROWS + "\n" + BAEKJOON_2239_ROWS)
    assert [r.line for r in records] == [1, 11]


def test_rectangular_boxes_with_box_option():
    _, records = read_puzzles("0" * 36 + "\n", box=(3, 2))
    assert records[0].grid.box == (3, 2)
    _, records = read_puzzles("0" * 36 + "\n")
    assert records[0].grid.box == (2, 3)


# -- one test per kind of bad input -------------------------------------------------------------

def test_wrong_row_count():
    text = "\n".join(BAEKJOON_2239_ROWS.splitlines()[:8])
    with pytest.raises(GridParseError, match=r"^<stdin>:1: expected 9 rows for a 9x9 puzzle, got 8"):
        read_puzzles(text)


def test_wrong_row_length():
    rows = BAEKJOON_2239_ROWS.splitlines()
    rows[3] += "1"
    with pytest.raises(GridParseError, match=r"^f.txt:4: expected 9 values in this row"):
        read_puzzles("\n".join(rows), source="f.txt")


def test_unknown_character_with_column():
    rows = BAEKJOON_2239_ROWS.splitlines()
    rows[2] = rows[2][:4] + "?" + rows[2][5:]
    with pytest.raises(GridParseError, match=r"^<stdin>:3:5: unknown symbol '\?'"):
        read_puzzles("\n".join(rows))


def test_value_above_size_in_spaced_layout():
    text = BAEKJOON_2580_TEXT.replace("2 5 8 3 9 4 7 6 0", "2 5 8 3 9 4 7 6 10")
    with pytest.raises(GridParseError, match=r"^<stdin>:9:9: value 10 is above 9"):
        read_puzzles(text)


def test_value_above_size_in_line_layout_is_a_bad_record():
    _, records = read_puzzles("5000000000000000\n1234000000000000\n", source="x")
    assert records[0].grid is None and records[0].error.startswith("x:1:1: symbol '5'")
    assert records[1].grid is not None  # the batch goes on


def test_prime_size():
    with pytest.raises(GridParseError, match="no Sudoku has rows of 7 values \\(it is prime\\)"):
        read_puzzles("1234567\n" * 7)


def test_not_a_number_in_spaced_layout():
    with pytest.raises(GridParseError, match=r":1:3: expected a number, got 'x'"):
        read_puzzles("1 x 3 4\n" * 4)


def test_empty_input():
    with pytest.raises(GridParseError, match="empty input"):
        read_puzzles("\n  \n# only a comment\n")


def test_binary_garbage():
    with pytest.raises(GridParseError, match="binary data.*NUL byte at offset 3"):
        decode_input(b"123\0\xff", source="x")
    with pytest.raises(GridParseError, match="binary data.*0xff"):
        decode_input(b"123\xff\xfe", source="x")


def test_ten_megabyte_line_gives_a_short_error():
    _, records = read_puzzles("1" * 10_000_000)
    assert records[0].grid is None
    assert len(records[0].error) < 200 and "10000000" in records[0].error


def test_unreadable_file_is_reported_and_others_go_on(tmp_path):
    good = tmp_path / "good.txt"
    good.write_text(BAEKJOON_2239 + "\n")
    loaded = load_puzzles([str(tmp_path / "missing.txt"), str(good)])
    assert loaded.errors == [f"{tmp_path / 'missing.txt'}: cannot read: No such file or directory"]
    assert [r.source for r in loaded.records] == [str(good)]


# -- writing ------------------------------------------------------------------------------------

def test_format_grid_layouts():
    grid = Grid.parse("1234341221434321")
    assert format_grid(grid, "grid") == "1234\n3412\n2143\n4321"
    assert format_grid(grid, "spaced") == "1 2 3 4\n3 4 1 2\n2 1 4 3\n4 3 2 1"
    assert format_grid(grid, "line") == "1234341221434321"


SHAPES = [(4, (2, 2)), (6, (2, 3)), (9, (3, 3)), (16, (4, 4)), (25, (5, 5))]


@given(st.sampled_from(SHAPES), st.sampled_from(list(Layout)), st.data())
def test_write_then_read_round_trip(shape, layout, data):
    size, box = shape
    values = data.draw(st.lists(st.integers(0, size), min_size=size * size, max_size=size * size))
    grid = Grid.from_values(values, box=box)
    text = format_grid(grid, layout)
    read_layout, records = read_puzzles(text, layout=layout, box=box)
    assert read_layout is layout
    assert [r.grid for r in records] == [grid]


def test_read_records_ignores_a_torn_last_line():
    assert read_records(['{"index": 0}', '', '{"index": 1}', '{"ind']) == [{"index": 0},
                                                                           {"index": 1}]
