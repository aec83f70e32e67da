"""Tests of `CpSatBackend`: options, the auto choices, set-up, stats, imports, odd grids."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from sudoku_cp.backends import get_backend
from sudoku_cp.backends.cpsat import CpSatBackend
from sudoku_cp.backends.cpsat.backend import LEXMIN_METHODS
from sudoku_cp.errors import BackendOptionError
from sudoku_cp.grid import Grid
from sudoku_cp.result import Mode, Status

from .conftest import BAEKJOON_2239, BAEKJOON_2239_ANSWER, EMPTY_LEXMIN, SERG_FIRST, brute_lexmin


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
@pytest.mark.parametrize("method", LEXMIN_METHODS)
def test_unsatisfiable_without_repeated_givens(mode, method):
    # Row 1 needs a 4 in its last cell, but column 4 already has one: no repeated given.
    no_candidate = Grid.parse("1230000000000004")
    # Row 1 has no place for a 1 (columns 8 and 9 hold one): an empty exactly-one.
    no_place = Grid.parse("234567800" + "0" * 18 + "000000010" + "0" * 18 + "000000001" + "0" * 18)
    # Every cell and every unit has room for each value, yet propagation finds no completion.
    by_propagation = [
        Grid.parse("0004200000001030"),
        Grid.parse("000030002000050040000000200005000060", box=(2, 3)),
    ]
    for grid in (no_candidate, no_place, *by_propagation):
        assert not grid.conflicts() and brute_lexmin(grid) is None
        result = get_backend("cpsat", lexmin=method).solve(grid, mode=mode)
        assert result.status is Status.UNSATISFIABLE and result.solution is None
        assert result.count == (0 if mode == "count" else None)


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
def test_full_grid_is_its_own_completion(mode, backend):
    full = Grid.parse(BAEKJOON_2239_ANSWER)
    result = backend.solve(full, mode=mode)
    assert (result.status, result.solution) == (Status.SOLVED, full)
    assert result.count == (1 if mode == "count" else None)


def test_start_up_is_not_charged_to_the_time_limit():
    """In a fresh interpreter the ortools import (0.2-0.7 s) and the model of the shape are made
    by `prepare`, before the clock: a one-blank 9x9 is solved within 0.05 s."""
    puzzle = "0" + BAEKJOON_2239_ANSWER[1:]
    code = (
        "import json, sys; from sudoku_cp.backends import get_backend;"
        " from sudoku_cp.grid import Grid;"
        " assert not any(m.startswith('ortools') for m in sys.modules);"
        f" r = get_backend('cpsat').solve(Grid.parse({puzzle!r}), time_limit=0.05);"
        " print(json.dumps([str(r.status), r.solution.to_line(), r.stats]))"
    )
    output = subprocess.run(
        [sys.executable, "-c", code], check=True, capture_output=True, text=True
    ).stdout
    status, line, stats = json.loads(output)
    assert (status, line) == (str(Status.SOLVED), BAEKJOON_2239_ANSWER)
    assert stats["setup_seconds"] > 0


def test_prepare_works_once_per_shape():
    backend = get_backend("cpsat")
    assert backend.prepare(Grid.empty(9)) and not backend.prepare(Grid.parse(BAEKJOON_2239))
    assert backend.prepare(Grid.empty(4))
    assert "setup_seconds" not in backend.solve(Grid.empty(9)).stats
    assert "setup_seconds" in get_backend("cpsat").solve(Grid.empty(9)).stats


@pytest.mark.parametrize(
    "options",
    [
        {"workers": 0},
        {"workers": -2},
        {"workers": "two"},
        {"workers": True},
        {"lexmin": "fastest"},
        {"strategy": "fastest"},
    ],
)
def test_bad_options_are_refused(options):
    with pytest.raises(BackendOptionError):
        get_backend("cpsat", **options)


def test_workers_reach_cp_sat_in_any_mode(solve_calls):
    assert get_backend("cpsat").solve(Grid.empty(4), mode="any").stats["workers"] == 1
    get_backend("cpsat", workers=2).solve(Grid.empty(4), mode="any")
    assert [call["workers"] for call in solve_calls] == [1, 2]


def test_versions_names_ortools():
    import ortools

    assert CpSatBackend.versions() == {"ortools": ortools.__version__}


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
def test_stats_are_honest_json_scalars(mode, backend):
    result = backend.solve(Grid.parse(BAEKJOON_2239), mode=mode)
    stats = dict(result.stats)
    json.dumps(stats)
    assert all(isinstance(v, (int, float, str, bool)) for v in stats.values())
    for key in (
        "build_seconds",
        "solve_seconds",
        "stages",
        "branches",
        "conflicts",
        "workers",
        "ortools",
        "model",
        "strategy",
    ):
        assert key in stats
    assert stats["model"] == "boolean" and stats["stages"] >= 1
    assert stats["build_seconds"] + stats["solve_seconds"] <= result.seconds


def test_importing_the_backend_does_not_load_ortools():
    code = (
        "import sys, sudoku_cp.backends as b; b.backend_class('cpsat');"
        " assert 'sudoku_cp.backends.cpsat' in sys.modules;"
        " assert not any(m.startswith('ortools') for m in sys.modules), 'ortools loaded'"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_solving_loads_neither_pandas_nor_numpy():
    """The models are written and solved through `cp_model_helper`; `cp_model` would import
    pandas and numpy into every process that runs the backend."""
    code = (
        "import sys; from sudoku_cp.backends import get_backend; from sudoku_cp.grid import Grid;"
        " b = get_backend('cpsat'); g = Grid.empty(9);"
        " [b.solve(g, mode=m, time_limit=t) for m in ('lexmin', 'any', 'count')"
        " for t in (None, 9)];"
        " get_backend('cpsat', lexmin='objective', model='integer', counts='on').solve(g);"
        " bad = [m for m in ('pandas', 'numpy', 'ortools.sat.python.cp_model')"
        " if m in sys.modules];"
        " assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_auto_picks_the_model_and_strategy_by_size():
    backend = get_backend("cpsat")
    assert [backend.model_kind(n) for n in (9, 16, 25, 30, 36, 64)] == [
        "boolean",
        "boolean",
        "boolean",
        "integer",
        "integer",
        "integer",
    ]
    assert [backend.model_kind(n, mode) for n in (9, 64) for mode in (Mode.ANY, Mode.COUNT)] == [
        "boolean"
    ] * 4
    assert [backend.lexmin_method(n) for n in (9, 25, 30, 64)] == ["search"] * 4
    forced = get_backend("cpsat", model="boolean", lexmin="objective")
    assert (forced.model_kind(64), forced.lexmin_method(64)) == ("boolean", "objective")
    stats = backend.solve(Grid.parse(SERG_FIRST)).stats
    assert (stats["model"], stats["strategy"], stats["stages"]) == ("boolean", "search", 1)
    big = Grid.empty(30)
    assert backend.prepare(big) and not backend.prepare(big)  # both models, outside the clock
    assert {key[2] for key in backend._models if key[0] == 30} == {"boolean", "integer"}
    assert backend.solve(big, mode="any").stats["model"] == "boolean"


@pytest.mark.parametrize("options", [{"model": "bool"}, {"model": ""}])
def test_bad_model_options_are_refused(options):
    with pytest.raises(BackendOptionError):
        get_backend("cpsat", **options)


def test_empty_30x30_lexmin_by_auto_is_a_valid_completion():
    """5x6 boxes, beyond the thresholds: the integer model and the fixed search (under a second
    of CPU here; the Boolean one took 1.0 s, the staged objective far longer)."""
    grid = Grid.empty(30)
    assert grid.box == (5, 6)
    result = get_backend("cpsat").solve(grid, time_limit=120)
    assert (result.stats["model"], result.stats["strategy"]) == ("integer", "search")
    assert result.solution.is_solution_of(grid)
    rows = result.solution.rows()
    assert list(rows[0]) == list(range(1, 31))
    # The smallest second row: the first box's other values, then each box's lowest values.
    assert list(rows[1][:6]) == list(range(7, 13))


@pytest.mark.slow
def test_empty_36x36_lexmin_is_a_valid_completion():
    """About 1 s of CPU for the integer model's fixed search with the row counts (4-6 s without,
    with 49k conflicts; the Boolean model took 48 s)."""
    grid = Grid.empty(36)
    result = get_backend("cpsat").solve(grid, time_limit=300)
    assert result.status is Status.SOLVED and result.solution.is_solution_of(grid)
    assert result.stats["row_counts"] is True and result.stats["conflicts"] == 0
    assert list(result.solution.rows()[0]) == list(range(1, 37))
    assert list(result.solution.rows()[1][:6]) == list(range(7, 13))


def test_auto_adds_the_row_counts_by_size_box_and_givens():
    backend = get_backend("cpsat")
    sizes = [30, 32, 35, 36, 42, 49, 56, 64]
    assert [backend.uses_row_counts(Grid.empty(size)) for size in sizes] == [
        False,
        False,
        True,
        True,
        True,
        True,
        True,
        False,
    ]
    assert Grid.empty(42).box == (6, 7) and Grid.empty(64).box == (8, 8)
    # Empty-ish only: up to N givens (one row), not more.
    row_given = Grid.from_values(list(range(1, 37)) + [0] * (36 * 35))
    more = Grid.from_values(list(range(1, 37)) + [7] + [0] * (36 * 35 - 1))
    assert backend.uses_row_counts(row_given) and not backend.uses_row_counts(more)
    assert get_backend("cpsat", counts="on").uses_row_counts(Grid.empty(9))
    assert not get_backend("cpsat", counts="off").uses_row_counts(Grid.empty(42))
    with pytest.raises(BackendOptionError):
        get_backend("cpsat", counts="yes")


def test_the_row_counts_go_into_the_lexmin_model_only():
    backend = get_backend("cpsat", model="integer", counts="on")
    grid = Grid.empty(9)
    assert backend.prepare(grid) and not backend.prepare(grid)
    plain_model = backend._models[9, (3, 3), "integer"]
    counted = backend._models_with_counts[9, (3, 3)]
    # 81 cells, 729 literals "cell == value", 9 rows x 2 cuts x 9 values "value left of the cut"
    assert len(counted.proto.variables) == 81 + 729 + 9 * 2 * 9
    assert len(plain_model.proto.variables) == 81
    assert backend.solve(grid).stats["row_counts"] is True
    assert backend.solve(grid).stats["variables"] == 81 + 729 + 9 * 2 * 9
    assert backend.solve(grid, mode="any").stats["row_counts"] is False
    assert backend.solve(grid).solution.to_line() == EMPTY_LEXMIN[9, None]
    plain = get_backend("cpsat", model="integer", counts="off")
    assert plain.solve(grid).stats["row_counts"] is False and not plain._models_with_counts
