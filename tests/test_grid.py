import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sudoku_cp.errors import GridParseError, GridShapeError
from sudoku_cp.grid import Grid, default_box, geometry, parse_box, symbol_value, value_symbol

from .conftest import BAEKJOON_2239, BAEKJOON_2239_ANSWER

SHAPES = [
    (4, (2, 2)),
    (6, (2, 3)),
    (8, (2, 4)),
    (9, (3, 3)),
    (12, (3, 4)),
    (16, (4, 4)),
    (25, (5, 5)),
]


@pytest.mark.parametrize("size, box", SHAPES)
def test_geometry_invariants(size, box):
    geo = geometry(size, box)
    assert default_box(size) == box
    assert len(geo.units) == 3 * size
    assert all(len(unit) == size for unit in geo.units)
    for unit in geo.units:  # every unit holds each cell once
        assert len(set(unit)) == size
    for kind in (geo.rows, geo.columns, geo.boxes):  # each kind partitions the grid
        assert sorted(cell for unit in kind for cell in unit) == list(geo.cells)
    expected_peers = 3 * (size - 1) - (box[0] - 1) - (box[1] - 1)
    for cell in geo.cells:
        assert len(geo.units_of[cell]) == 3
        assert len(geo.peers[cell]) == expected_peers
        assert cell not in geo.peers[cell]
        assert geo.box_of(cell) == next(i for i, b in enumerate(geo.boxes) if cell in b)


def test_geometry_is_computed_once_per_shape():
    assert geometry(9) is geometry(9, (3, 3))
    assert geometry(6) is not geometry(6, (3, 2))


def test_6x6_boxes_are_two_rows_by_three_columns():
    assert geometry(6).boxes[0] == (0, 1, 2, 6, 7, 8)


@pytest.mark.parametrize("size", [7, 11, 2, 3, 1, 37, 65, 81])
def test_sizes_without_a_box_shape_are_refused(size):
    with pytest.raises(GridShapeError):
        default_box(size)


def test_box_must_tile_the_grid():
    with pytest.raises(GridShapeError, match="does not fit"):
        geometry(9, (2, 4))
    with pytest.raises(GridShapeError):
        parse_box("2by3")
    assert parse_box("2x3") == (2, 3)


def test_symbols():
    assert [value_symbol(v) for v in (0, 1, 9, 10, 16, 25)] == ["0", "1", "9", "A", "G", "P"]
    assert symbol_value(".") == 0 and symbol_value("g") == 16 and symbol_value("?") is None


def test_parse_round_trip_and_repr():
    grid = Grid.parse(BAEKJOON_2239)
    assert grid.to_line() == BAEKJOON_2239
    assert eval(repr(grid), {"Grid": Grid}) == grid
    assert Grid.parse(BAEKJOON_2239.replace("0", ".")) == grid
    assert grid.size == 9 and len(grid.givens()) == 81 - len(grid.blanks())


def test_picture_has_box_separators():
    picture = Grid.parse(BAEKJOON_2239).picture().splitlines()
    assert picture[0] == "1 . 3 | . . . | 5 . 9"
    assert picture[3] == "------+-------+------"
    assert len(picture) == 11


@pytest.mark.parametrize(
    "text, message",
    [
        ("12", "expected N\\*N symbols"),
        ("1" * 49, "prime"),
        ("x" + "0" * 80, "unknown symbol 'x'"),
        ("5" + "0" * 15, "value 5 is above 4"),
        ("G" + "0" * 80, "unknown symbol .G."),
        ("H" + "0" * 255, "value 17 is above 16"),
    ],
)
def test_parse_errors(text, message):
    with pytest.raises(GridParseError, match=message):
        Grid.parse(text)


def test_parse_error_quotes_long_input_briefly():
    with pytest.raises(GridParseError) as caught:
        Grid.parse("1" * 1_000_000)
    assert len(str(caught.value)) < 200


def test_conflicts_are_data():
    grid = Grid.parse("55" + "0" * 79)
    descriptions = [c.describe() for c in grid.conflicts()]
    assert descriptions == ["row 1 has two 5s", "box 1 has two 5s"]
    assert Grid.parse(BAEKJOON_2239).conflicts() == []
    column = Grid.parse("3" + "0" * 8 + "3" + "0" * 71).conflicts()
    assert [c.describe() for c in column] == ["column 1 has two 3s", "box 1 has two 3s"]


def test_is_solution_of():
    puzzle = Grid.parse(BAEKJOON_2239)
    answer = Grid.parse(BAEKJOON_2239_ANSWER)
    assert answer.is_solution_of(puzzle)
    assert answer.why_not_solution_of(puzzle) is None
    swapped = answer.with_values({0: answer.values[1], 1: answer.values[0]})
    assert swapped.why_not_solution_of(puzzle).startswith("changes the given 1")
    other = Grid.parse(BAEKJOON_2239_ANSWER).with_values({1: 4, 2: 4})
    assert not other.is_solution_of(Grid.empty(9))
    assert "blank" in puzzle.why_not_solution_of(Grid.empty(9))
    assert not answer.is_solution_of(Grid.empty(4))


def test_grid_is_immutable():
    grid = Grid.empty(4)
    with pytest.raises(AttributeError):
        grid.values = ()  # type: ignore[misc]


@given(st.sampled_from(SHAPES), st.data())
def test_line_round_trip_any_shape(shape, data):
    size, box = shape
    values = data.draw(st.lists(st.integers(0, size), min_size=size * size, max_size=size * size))
    grid = Grid.from_values(values, box=box)
    assert Grid.parse(grid.to_line(), box=box) == grid
    assert Grid.parse(grid.to_line().lower(), box=box) == grid


@pytest.mark.parametrize(
    "size, box",
    [(36, (6, 6)), (42, (6, 7)), (49, (7, 7)), (56, (7, 8)), (64, (8, 8)), (30, (5, 6))],
)
def test_sizes_up_to_64_have_their_boxes(size, box):
    assert default_box(size) == box
    assert len(geometry(size).units) == 3 * size


def test_values_above_35_are_numbers_and_the_line_round_trips():
    grid = Grid.empty(36).with_values({0: 36, 1: 35, 37: 10})
    line = grid.to_line()
    assert line.startswith("36,35,0,") and line.count(",") == 36 * 36 - 1
    assert Grid.parse(line) == grid
    assert grid.to_text().splitlines()[0].split()[:3] == ["36", "35", "0"]
    assert Grid.parse(Grid.empty(9).to_line()) == Grid.empty(9)
    assert Grid.parse(",".join(["0"] * 16)) == Grid.empty(4)  # commas for any size


def test_a_bad_number_in_a_comma_line_is_named():
    with pytest.raises(GridParseError, match="'37' is not a number from 0 to 36"):
        Grid.parse(",".join(["37"] + ["0"] * (36 * 36 - 1)))


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([(4, (2, 2)), (6, (2, 3)), (6, (3, 2)), (9, (3, 3)), (12, (3, 4))]), st.data()
)
def test_conflicts_match_a_plain_scan_of_every_unit(shape, data):
    size, box = shape
    # Mostly blank grids with a few values, so that grids with and without repeats are common.
    values = data.draw(
        st.lists(
            st.integers(0, size).map(lambda v: v if v % 3 else 0),
            min_size=size * size,
            max_size=size * size,
        )
    )
    grid = Grid.from_values(values, box=box)
    geo = grid.geometry
    expected = [
        (geo.name_unit(index), value, tuple(c for c in unit if values[c] == value))
        for index, unit in enumerate(geo.units)
        for value in range(1, size + 1)
        if sum(values[cell] == value for cell in unit) > 1
    ]
    assert [(c.unit, c.value, c.cells) for c in grid.conflicts()] == expected


def test_messages_say_an_8x8_and_an_11x11():
    with pytest.raises(GridParseError, match=r"\(an 8x8 puzzle uses "):
        Grid.parse("9" + "0" * 63)
    with pytest.raises(GridShapeError, match=r"^an 8x3 box does not fit a 16x16 grid$"):
        geometry(16, (8, 3))
    with pytest.raises(GridShapeError, match=r"^a 3x3 box does not fit an 8x8 grid$"):
        geometry(8, (3, 3))
    assert Grid.empty(8).why_not_solution_of(Grid.empty(9)) == (
        "an 8x8 grid cannot complete a 9x9 puzzle"
    )
