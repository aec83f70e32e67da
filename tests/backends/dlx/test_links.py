from sudoku_cp.backends import get_backend
from sudoku_cp.backends.base import Deadline
from sudoku_cp.backends.dlx.links import Links, structure_of
from sudoku_cp.grid import Grid

from ...conftest import EMPTY_9_LEXMIN


def test_mrv_first_completion_is_not_the_lexmin_in_general():
    # Why MRV alone does not give the lex-min: on the empty grid its first completion differs.
    links = Links(structure_of(9, (3, 3)), Deadline(None))
    first = links.values(links.first(rowmajor=False))
    assert Grid(first, (3, 3)).is_solution_of(Grid.empty(9))
    assert "".join(map(str, first)) != EMPTY_9_LEXMIN


def test_the_structure_is_built_in_prepare_once_per_shape():
    structure_of.cache_clear()
    backend = get_backend("dlx")
    assert "setup_seconds" in backend.solve(Grid.empty(4)).stats
    assert "setup_seconds" not in backend.solve(Grid.empty(4)).stats


def test_the_structure_is_exact_cover():
    structure = structure_of(6, (2, 3))
    assert structure.columns == 4 * 36
    assert all(count == 6 for count in structure.count[1:])  # every column: N candidate rows
