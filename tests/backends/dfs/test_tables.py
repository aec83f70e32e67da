from sudoku_cp.backends.dfs.tables import (
    cell_choices,
    first_undecided,
    most_constrained,
    places_of,
    tables_of,
    values_of,
)
from sudoku_cp.grid import geometry


def test_tables_flatten_the_geometry_once_per_shape():
    tables = tables_of(6, (2, 3))
    assert tables is tables_of(6, (2, 3))
    geo = geometry(6, (2, 3))
    assert tables.full == 0b111111 and tables.units == geo.units
    for cell in geo.cells:
        assert tables.peer_bits[cell] == sum(1 << peer for peer in geo.peers[cell])
        units = [index for index in range(len(geo.units)) if tables.unit_set_of[cell] >> index & 1]
        assert [geo.units[index] for index in units] == [u for u in geo.units if cell in u]


def test_segments_are_every_box_line_intersection():
    segments = tables_of(9, (3, 3)).segments
    assert len(segments.getters) == 54  # 9 rows and 9 columns, each crossing 3 boxes
    assert (segments.line_count, segments.box_count) == (18, 18)
    first = 0  # row 1 in box 1: cells 0, 1, 2
    assert segments.getters[first](list(range(81))) == (0, 1, 2)
    assert segments.line_rest[first] == tuple(range(3, 9))
    assert segments.box_rest[first] == (9, 10, 11, 18, 19, 20)


def test_choices_and_cells():
    assert cell_choices(7, 0b1011) == [(7, 0b1000), (7, 0b0010), (7, 0b0001)]  # smallest last
    candidates = [0b0001, 0b0110, 0b1000, 0b0111, 0b0101]
    assert first_undecided(candidates, 0) == 1 and first_undecided(candidates, 2) == 3
    assert first_undecided([1, 2, 4], 0) == -1
    assert most_constrained(candidates) == 1  # two candidates, the first such in row-major order
    assert most_constrained([1, 2, 4]) == -1
    assert places_of(candidates, 4) == [0b11001, 0b01010, 0b11010, 0b00100]
    assert values_of([1, 8, 2]) == (1, 4, 2)
