"""Tests of the models: the protos `cp_model` writes, and the row counts that keep the lex-min."""

from __future__ import annotations

import pytest

from sudoku_cp.backends import get_backend
from sudoku_cp.backends.cpsat.kept import BooleanModel, IntegerModel
from sudoku_cp.grid import Grid, Shape, geometry
from sudoku_cp.result import Status

from .conftest import INTEGER_SEARCH, SMALL_PUZZLES, brute_lexmin, generated


def reference_proto(size: int, box: Shape, kind: str, counts: bool = False):
    """The model as the `cp_model` helpers write it (what the backend used to build)."""
    cp_model = pytest.importorskip("ortools.sat.python.cp_model")
    units = geometry(size, box).units
    model = cp_model.CpModel()
    if kind == "boolean":
        literals = [model.new_bool_var("") for _ in range(size**3)]
        for cell in range(size * size):
            model.add_exactly_one(literals[cell * size : (cell + 1) * size])
        for unit in units:
            for offset in range(size):
                model.add_exactly_one([literals[cell * size + offset] for cell in unit])
        return model.proto
    cells = [model.new_int_var(1, size, "") for _ in range(size * size)]
    for unit in units:
        model.add_all_different([cells[cell] for cell in unit])
    if counts:
        value_literals = [[model.new_bool_var("") for _ in range(size)] for _ in cells]
        for cell, row_literals in enumerate(value_literals):
            for value, literal in enumerate(row_literals, start=1):
                model.add(cells[cell] == value).only_enforce_if(literal)
                model.add(cells[cell] != value).only_enforce_if(~literal)
        for row in range(size):
            row_cells = range(row * size, (row + 1) * size)
            for cut in range(box[1], size, box[1]):
                first, rest = row_cells[:cut], row_cells[cut:]
                among = []
                for value in range(size):
                    inside = model.new_bool_var("")
                    model.add(inside == sum(value_literals[cell][value] for cell in first))
                    model.add(inside + sum(value_literals[cell][value] for cell in rest) == 1)
                    among.append(inside)
                model.add(sum(among) == cut)
    return model.proto


@pytest.mark.parametrize(("size", "box"), [(4, (2, 2)), (6, (2, 3)), (9, (3, 3))])
def test_the_kept_models_are_the_protos_cp_model_writes(size, box):
    assert str(BooleanModel(size, box).proto) == str(reference_proto(size, box, "boolean"))
    for counts in (False, True):
        kept = IntegerModel(size, box, row_counts=counts)
        assert str(kept.proto) == str(reference_proto(size, box, "integer", counts))


@pytest.mark.parametrize("method", ["objective", "search"])
def test_row_counts_keep_the_lexmin_on_multi_solution_puzzles(method):
    """Implied constraints remove no completion, so the fixed search's first solution (and each
    stage's optimum) stays the lex-min: brute force on the small sets."""
    backend = get_backend("cpsat", model="integer", lexmin=method, counts="on")
    wrong = [
        grid for grid in SMALL_PUZZLES if backend.solve(grid).solution.values != brute_lexmin(grid)
    ]
    assert wrong == []


@pytest.mark.parametrize(
    ("name", "indices"),
    [
        ("multi-9x9.txt", range(10)),
        ("multi-16x16.txt", range(0, 10, 3)),
        ("multi-20x20.txt", [3, 6]),
    ],
)
def test_row_counts_give_the_same_lexmin_as_without(name, indices):
    with_counts = get_backend("cpsat", counts="on", **INTEGER_SEARCH)
    without = get_backend("cpsat", counts="off", **INTEGER_SEARCH)
    for grid in generated(name, indices):
        answer = with_counts.solve(grid)
        assert answer.stats["row_counts"] is True
        assert answer.solution == without.solve(grid).solution, name


def test_row_counts_refute_the_pigeonholes_that_cost_conflicts():
    """Empty 27x27 (3x9 boxes): the plain search refutes its dead ends with ~2,900 conflicts,
    with the row counts ~100; the same grid either way."""
    grid = Grid.empty(27)
    with_counts = get_backend("cpsat", counts="on").solve(grid, time_limit=60)
    without = get_backend("cpsat", counts="off").solve(grid, time_limit=60)
    assert with_counts.status is Status.SOLVED and with_counts.solution.is_solution_of(grid)
    assert with_counts.solution == without.solution
    assert with_counts.stats["row_counts"] and not without.stats["row_counts"]
    assert with_counts.stats["conflicts"] * 10 < without.stats["conflicts"]
