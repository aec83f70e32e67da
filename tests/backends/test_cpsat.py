"""Tests of the cpsat backend: known answers, a brute-force reference, and one test per pitfall."""

from __future__ import annotations

import itertools
import json
import random
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from sudoku_cp import generate
from sudoku_cp.backends import cpsat, get_backend
from sudoku_cp.errors import BackendFailure, BackendOptionError
from sudoku_cp.grid import Grid, Shape, geometry
from sudoku_cp.result import Mode, Status

cmh = pytest.importorskip("ortools.sat.python.cp_model_helper")
CpStatus = cmh.CpSolverStatus  # CP-SAT's statuses (ours are `Status`)
FIXED_SEARCH = cmh.SatParameters.SearchBranching.FIXED_SEARCH

BAEKJOON_2239 = "103000509002109400000704000300502006060000050700803004000401000009205800804000107"
BAEKJOON_2239_ANSWER = (
    "143628579572139468986754231391542786468917352725863914237481695619275843854396127"
)
EMPTY_LEXMIN = {
    (4, None): "1234341221434321",
    (6, (2, 3)): "123456456123214365365214531642642531",
    (9, None): (
        "123456789456789123789123456214365897365897214897214365531642978642978531978531642"
    ),
}
# Rows 2, 3 and 6 of the empty 16x16 and 25x25 lex-mins (0-based 1, 2 and 5, as the reference
# notes number them).
SERG_FIRST = (
    "800000000095000000076000000000426798000571243000893165000000916000030487"
    "000010532"
)  # the first of serg_benchmark: several completions
G17 = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
EMPTY16_ROWS = {
    1: [5, 6, 7, 8, 1, 2, 3, 4, 13, 14, 15, 16, 9, 10, 11, 12],
    2: [*range(9, 17), *range(1, 9)],
    5: [6, 5, 8, 7, 2, 1, 4, 3, 14, 13, 16, 15, 10, 9, 12, 11],
}
EMPTY25_ROWS = {
    1: [*range(6, 11), *range(1, 6), *range(16, 26), *range(11, 16)],
    2: [*range(11, 26), *range(1, 11)],
    5: [2, 1, 4, 3, 6, 5, 8, 7, 10, 9, 12, 11, 14, 13, 16, 15, 18, 17, 20, 19, 22, 21, 24, 25, 23],
}


# -- a brute-force reference --------------------------------------------------------------------


def completions(grid: Grid) -> Iterator[tuple[int, ...]]:
    """Every completion in lexicographic order: naive row-major DFS, values ascending."""
    size, peers, values, blanks = grid.size, grid.geometry.peers, list(grid.values), grid.blanks()

    def extend(position: int) -> Iterator[tuple[int, ...]]:
        if position == len(blanks):
            yield tuple(values)
            return
        cell = blanks[position]
        for value in range(1, size + 1):
            if all(values[peer] != value for peer in peers[cell]):
                values[cell] = value
                yield from extend(position + 1)
        values[cell] = 0

    return extend(0)


def brute_lexmin(grid: Grid) -> tuple[int, ...] | None:
    return next(completions(grid), None)


def brute_count(grid: Grid, limit: int) -> int:
    return sum(1 for _ in itertools.islice(completions(grid), limit))


def pattern_grid(box: Shape) -> list[int]:
    """A valid full grid for this box shape (each band shifts by a box width)."""
    return list(generate.pattern_grid(box[0] * box[1], box=box).values)


def random_puzzle(rng: random.Random, box: Shape, givens: int) -> Grid:
    """A valid grid shuffled by symmetries (digits, rows in bands, bands, ...), `givens` kept."""
    box_rows, box_cols = box
    size = box_rows * box_cols
    full = pattern_grid(box)
    digits = rng.sample(range(1, size + 1), size)
    rows = [
        band * box_rows + r
        for band in rng.sample(range(box_cols), box_cols)
        for r in rng.sample(range(box_rows), box_rows)
    ]
    columns = [
        stack * box_cols + c
        for stack in rng.sample(range(box_rows), box_rows)
        for c in rng.sample(range(box_cols), box_cols)
    ]
    shuffled = [digits[full[row * size + column] - 1] for row in rows for column in columns]
    kept = set(rng.sample(range(size * size), givens))
    return Grid.from_values([v if cell in kept else 0 for cell, v in enumerate(shuffled)], box=box)


def multi_solution_puzzles(seed: int, box: Shape, givens: range, how_many: int) -> list[Grid]:
    """Seeded random puzzles with at least two completions (the ones that expose lex-min bugs)."""
    rng = random.Random(seed)
    found: list[Grid] = []
    while len(found) < how_many:
        grid = random_puzzle(rng, box, rng.choice(givens))
        if brute_count(grid, 2) == 2:
            found.append(grid)
    return found


SMALL_PUZZLES = (
    multi_solution_puzzles(4, (2, 2), range(0, 8), 40)
    + multi_solution_puzzles(6, (2, 3), range(0, 16), 40)
    + multi_solution_puzzles(9, (3, 3), range(32, 46), 30)
)


@pytest.fixture(scope="module")
def backend() -> cpsat.CpSatBackend:
    return get_backend("cpsat")  # type: ignore[return-value]


@pytest.fixture(scope="module")
def staged() -> cpsat.CpSatBackend:
    """The staged objective (`auto` takes the search)."""
    return get_backend("cpsat", strategy="objective")  # type: ignore[return-value]


@pytest.fixture
def solve_calls(monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    """What each CP-SAT call was given: parameters and the model's objective and hints."""
    calls: list[dict] = []
    cpsat.warm_up()  # once per process, before the spy: not a call of any puzzle
    real_call = cpsat.call_cp_sat

    def spy(wrapper, proto, parameters):
        calls.append(
            {
                "workers": parameters.num_workers,
                "presolve": parameters.cp_model_presolve,
                "branching": parameters.search_branching,
                "symmetry": parameters.symmetry_level,
                "enumerate": parameters.enumerate_all_solutions,
                "max_time": parameters.max_time_in_seconds,
                "hint": proto.has_solution_hint(),
                "floating": proto.has_floating_point_objective(),
                "coefficients": list(proto.objective.coeffs),
                "variables": list(proto.objective.vars),
                "assumptions": len(proto.assumptions),
                "strategies": len(proto.search_strategy),
                "strategy": [list(s.variables) for s in proto.search_strategy],
            }
        )
        return real_call(wrapper, proto, parameters)

    monkeypatch.setattr(cpsat, "call_cp_sat", spy)
    return calls


def replace_status(monkeypatch: pytest.MonkeyPatch, status, *, from_call: int = 1) -> None:
    """Make CP-SAT solve as usual but report `status` from the `from_call`-th call on."""
    real_call = cpsat.call_cp_sat
    calls = itertools.count(1)

    def fake(wrapper, proto, parameters):
        response = real_call(wrapper, proto, parameters)
        if next(calls) >= from_call:
            response.status = status
        return response

    monkeypatch.setattr(cpsat, "call_cp_sat", fake)


# -- known answers ------------------------------------------------------------------------------


def test_baekjoon_2239_example(backend):
    puzzle = Grid.parse(BAEKJOON_2239)
    result = backend.solve(puzzle)
    assert result.status is Status.SOLVED
    assert result.solution.to_line() == BAEKJOON_2239_ANSWER


@pytest.mark.parametrize("strategy", cpsat.STRATEGIES)
@pytest.mark.parametrize(("size", "box"), list(EMPTY_LEXMIN))
def test_empty_grid_lexmin(size, box, strategy):
    result = get_backend("cpsat", strategy=strategy).solve(Grid.empty(size, box=box))
    assert result.solution.to_line() == EMPTY_LEXMIN[size, box]


@pytest.mark.parametrize("strategy", cpsat.STRATEGIES)
def test_empty_16x16_lexmin(strategy):
    result = get_backend("cpsat", strategy=strategy).solve(Grid.empty(16))
    rows = result.solution.rows()
    assert list(rows[0]) == list(range(1, 17))
    assert {index: list(rows[index]) for index in EMPTY16_ROWS} == EMPTY16_ROWS
    assert result.solution.values == brute_lexmin(Grid.empty(16))


def test_empty_25x25_lexmin_by_search():
    result = get_backend("cpsat", strategy="search").solve(Grid.empty(25))
    rows = result.solution.rows()
    assert list(rows[0]) == list(range(1, 26))
    assert {index: list(rows[index]) for index in EMPTY25_ROWS} == EMPTY25_ROWS


@pytest.mark.parametrize(("size", "box"), [(8, (2, 4)), (12, (3, 4))])
def test_rectangular_box_sizes_match_brute_force(size, box, backend):
    grid = Grid.empty(size, box=box)
    assert backend.solve(grid).solution.values == brute_lexmin(grid)


def test_puzzle_with_2x3_boxes(backend):
    puzzle = Grid.parse("000000000006000010010000000000400000", box=(2, 3))
    result = backend.solve(puzzle)
    assert result.solution.values == brute_lexmin(puzzle)
    assert result.solution.is_solution_of(puzzle)


# -- agreement with the brute-force reference ---------------------------------------------------


@pytest.mark.parametrize("strategy", cpsat.STRATEGIES)
def test_lexmin_matches_brute_force_on_multi_solution_puzzles(strategy):
    backend = get_backend("cpsat", strategy=strategy)
    wrong = [
        grid for grid in SMALL_PUZZLES if backend.solve(grid).solution.values != brute_lexmin(grid)
    ]
    assert wrong == []


def test_search_strategy_agrees_with_objective_on_16x16():
    rng = random.Random(16)
    objective, search = get_backend("cpsat", strategy="objective"), get_backend("cpsat")
    for _ in range(4):
        grid = random_puzzle(rng, (4, 4), rng.randrange(60, 120))
        assert objective.solve(grid).solution == search.solve(grid).solution


@pytest.mark.parametrize(
    ("box", "givens", "how_many"), [((3, 3), range(8, 32), 25), ((4, 4), range(90, 160), 4)]
)
def test_lexmin_agrees_with_dfs_where_brute_force_is_too_slow(box, givens, how_many, backend):
    dfs = get_backend("dfs")
    rng = random.Random(sum(box) + how_many)
    compared = 0
    for _ in range(how_many):
        grid = random_puzzle(rng, box, rng.choice(givens))
        reference = dfs.solve(grid, time_limit=5.0)
        if reference.status is Status.TIMEOUT:
            continue
        assert backend.solve(grid).solution == reference.solution
        compared += 1
    assert compared >= how_many // 2


def test_any_gives_a_completion(backend):
    for grid in SMALL_PUZZLES[::10]:
        result = backend.solve(grid, mode="any")
        assert result.status is Status.SOLVED and result.solution.is_solution_of(grid)


# -- count ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("limit", [1, 2, 7, 1000])
def test_count_matches_brute_force(limit, backend):
    for grid in SMALL_PUZZLES[:80:4]:
        result = backend.solve(grid, mode="count", limit=limit)
        assert result.count == brute_count(grid, limit)
        assert result.status is Status.SOLVED
        assert result.solution.is_solution_of(grid)


def test_count_stops_at_the_limit(backend):
    result = backend.solve(Grid.empty(9), mode="count", limit=1000)
    assert (result.status, result.count, result.limit_reached) == (Status.SOLVED, 1000, True)


def test_count_of_an_exhausted_search_is_exact(backend):
    result = backend.solve(Grid.empty(4), mode="count", limit=500)
    assert (result.status, result.count, result.limit_reached) == (Status.SOLVED, 288, False)


def test_count_unique_puzzle(backend):
    result = backend.solve(Grid.parse(BAEKJOON_2239), mode="count", limit=2)
    assert (result.count, result.solution.to_line()) == (1, BAEKJOON_2239_ANSWER)


def test_tally_never_counts_a_solution_twice():
    tally = cpsat.SolutionTally(limit=3)
    assert [tally.record(s) for s in [b"\1\2", b"\1\2", b"\2\1", b"\1\2", b"\2\2"]] == [
        False,
        False,
        False,
        False,
        True,
    ]
    assert (tally.count, tally.first, tally.reported) == (3, b"\1\2", 5)
    tally.record(b"\3\3")
    assert tally.count == 3  # never beyond the limit


def test_counting_uses_one_worker_even_when_more_are_asked(solve_calls):
    get_backend("cpsat", workers=2).solve(Grid.empty(4), mode="count", limit=50)
    assert [(c["workers"], c["enumerate"]) for c in solve_calls] == [(1, True)]


# -- unsatisfiable, full and odd grids ------------------------------------------------------------


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
@pytest.mark.parametrize("strategy", cpsat.STRATEGIES)
def test_unsatisfiable_without_repeated_givens(mode, strategy):
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
        result = get_backend("cpsat", strategy=strategy).solve(grid, mode=mode)
        assert result.status is Status.UNSATISFIABLE and result.solution is None
        assert result.count == (0 if mode == "count" else None)


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
def test_full_grid_is_its_own_completion(mode, backend):
    full = Grid.parse(BAEKJOON_2239_ANSWER)
    result = backend.solve(full, mode=mode)
    assert (result.status, result.solution) == (Status.SOLVED, full)
    assert result.count == (1 if mode == "count" else None)


def test_givens_are_kept_and_values_are_whole_grids(backend):
    puzzle = SMALL_PUZZLES[-1]
    result = backend.solve(puzzle)
    assert len(result.solution.values) == 81
    assert all(result.solution.values[cell] == value for cell, value in puzzle.givens().items())


# -- time limit -----------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
def test_time_limit_gives_timeout_or_a_right_answer(mode, backend):
    grid = Grid.empty(25)
    result = backend.solve(grid, mode=mode, limit=10**9, time_limit=0.5)
    assert result.seconds < 3.0
    if mode == "count":  # a billion completions cannot be enumerated in half a second
        assert result.status is Status.TIMEOUT and result.solution is None
    elif result.status is Status.SOLVED:
        assert result.solution.is_solution_of(grid)
        if mode == "lexmin":
            assert {i: list(result.solution.rows()[i]) for i in EMPTY25_ROWS} == EMPTY25_ROWS
    else:
        assert result.status is Status.TIMEOUT and result.solution is None


def test_zero_time_limit_times_out_without_an_answer(backend):
    result = backend.solve(Grid.empty(9), time_limit=0.0)
    assert (result.status, result.solution) == (Status.TIMEOUT, None)


def test_one_budget_across_all_stages(solve_calls, staged):
    result = staged.solve(Grid.empty(9), time_limit=30.0)
    budgets = [call["max_time"] for call in solve_calls]
    # 81 blank cells: 16 while all 9 values are open, longer chunks once frozen cells close some
    assert len(budgets) == result.stats["stages"] == 4
    assert all(30.0 >= a >= b for a, b in itertools.pairwise(budgets))


@pytest.mark.parametrize("time_limit", [None, float("inf"), 1e30, 2e9])
@pytest.mark.parametrize("strategy", cpsat.STRATEGIES)
def test_an_unbounded_time_limit_reaches_cp_sat_as_no_limit(time_limit, strategy, solve_calls):
    result = get_backend("cpsat", strategy=strategy).solve(Grid.empty(9), time_limit=time_limit)
    assert result.solution.to_line() == EMPTY_LEXMIN[9, None]
    assert solve_calls and all(call["max_time"] == float("inf") for call in solve_calls)


def test_a_finite_time_limit_reaches_cp_sat(solve_calls, backend):
    backend.solve(Grid.parse(BAEKJOON_2239), time_limit=1e6)
    assert solve_calls and all(0 < call["max_time"] <= 1e6 for call in solve_calls)


def test_a_call_that_outlives_its_budget_is_left_behind(monkeypatch):
    """CP-SAT does not look at its limit while it copies, validates and expands a model (seconds
    on a 49x49). The backend does not wait for such a call: TIMEOUT at the deadline, the call told
    to stop, its kept model left alone until the next `prepare` (outside the clock) has waited for
    the call and cleaned the model. Here the call blocks until the test releases it."""
    released = threading.Event()
    real_call = cpsat.call_cp_sat

    def stubborn(wrapper, proto, parameters):
        released.wait(60)  # a step that never looks at the limit
        return real_call(wrapper, proto, parameters)

    backend = get_backend("cpsat")
    puzzle = Grid.parse(SERG_FIRST)
    assert backend.prepare(puzzle)
    monkeypatch.setattr(cpsat, "call_cp_sat", stubborn)
    result = backend.solve(puzzle, time_limit=0.05)
    assert not released.is_set() and result.seconds < 30  # back before the call ended
    assert (result.status, result.solution) == (Status.TIMEOUT, None)
    assert "does not interrupt" in result.reason
    shape = backend._shapes[9, (3, 3), "boolean"]
    assert shape.busy is not None and shape.busy.is_alive()
    assert len(shape.proto.assumptions) == len(puzzle.givens())  # untouched while it is read
    monkeypatch.undo()
    released.set()
    assert backend.prepare(puzzle)  # waited for the call and cleaned the model: set-up
    assert shape.busy is None and not backend._busy
    assert len(shape.proto.assumptions) == 0 and len(shape.proto.search_strategy) == 0
    assert backend.solve(puzzle).solution == get_backend("dfs").solve(puzzle).solution


def test_a_call_within_its_budget_is_waited_for(solve_calls, backend):
    """Under a limit the call runs on a helper thread; one that ends in time is an answer."""
    result = backend.solve(Grid.parse(SERG_FIRST), time_limit=60.0)
    assert result.status is Status.SOLVED and len(solve_calls) == 1
    assert 0 < solve_calls[0]["max_time"] <= 60.0
    assert not backend._busy


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
def test_nan_time_limit_is_refused(mode, backend):
    with pytest.raises(ValueError, match="nan"):
        backend.solve(Grid.empty(4), mode=mode, time_limit=float("nan"))


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


# -- the pitfalls of ortools 9.15, one test each ------------------------------------------------


@pytest.mark.parametrize("strategy", cpsat.STRATEGIES)
def test_lexmin_runs_a_fixed_search_without_presolve_on_one_worker(strategy, solve_calls):
    get_backend("cpsat", workers=2, strategy=strategy).solve(Grid.empty(9))
    assert solve_calls
    for call in solve_calls:
        assert (call["workers"], call["presolve"], call["symmetry"]) == (1, False, 0)
        assert call["branching"] == FIXED_SEARCH and call["strategies"] == 1


def test_search_with_presolve_and_symmetry_would_not_be_lexmin(monkeypatch):
    """Why presolve and symmetry detection are off: turn them on and the search strategy's
    answers go wrong (the givens are assumptions, which keep most of presolve away, but the
    empty grids and 12 of these 110 puzzles still came out wrong with symmetry breaking on)."""
    fixed_search = cpsat.configure_fixed_search

    def with_presolve(parameters):
        fixed_search(parameters)
        parameters.cp_model_presolve = True
        parameters.symmetry_level = 2

    monkeypatch.setattr(cpsat, "configure_fixed_search", with_presolve)
    backend = get_backend("cpsat", strategy="search")
    assert any(backend.solve(g).solution.values != brute_lexmin(g) for g in SMALL_PUZZLES)


def test_objective_still_guarantees_lexmin_when_the_search_is_not_lexmin(monkeypatch):
    fixed_search = cpsat.configure_fixed_search

    def misleading(parameters):
        fixed_search(parameters)
        parameters.cp_model_presolve = True
        parameters.symmetry_level = 2
        parameters.num_workers = 2

    monkeypatch.setattr(cpsat, "configure_fixed_search", misleading)
    backend = get_backend("cpsat", strategy="objective")
    for grid in SMALL_PUZZLES[::3]:
        assert backend.solve(grid).solution.values == brute_lexmin(grid)


@pytest.mark.parametrize("size", range(4, 26))
def test_chunk_length_keeps_the_objective_exact(size):
    length = cpsat.chunk_length(size)
    assert size**length - 1 < 2**53 <= size ** (length + 1) - 1


def test_chunk_lengths_of_the_usual_sizes():
    assert [cpsat.chunk_length(n) for n in (4, 9, 16, 25)] == [26, 16, 13, 11]


@pytest.mark.parametrize("size", [4, 9, 16])
def test_every_stage_objective_is_exact_integer_and_without_hints(size, solve_calls):
    result = get_backend("cpsat", strategy="objective").solve(Grid.empty(size))
    assert result.stats["stages"] == len(solve_calls) >= (1 if size == 4 else 2)
    first_chunk = min(cpsat.chunk_length(size), size * size)
    assert largest_objective(solve_calls[0], size) == size**first_chunk - 1
    for call in solve_calls:
        assert not call["hint"] and not call["floating"]  # hints crashed 9.15 (#5288, #5091)
        assert 0 < largest_objective(call, size) < 2**53


def test_fewer_candidates_make_longer_exact_chunks(solve_calls, staged):
    """A sparse multi-solution 9x9: its chunks are longer than 16 cells, yet exact."""
    puzzle = Grid.parse(SERG_FIRST)  # 35 givens, several completions, 46 blank cells
    result = staged.solve(puzzle)
    assert result.solution.values == get_backend("dfs").solve(puzzle).solution.values
    assert result.stats["probe"] == "skipped" and result.stats["stages"] == len(solve_calls) == 2
    cells = [{variable // 9 for variable in call["variables"]} for call in solve_calls]
    assert max(cells[0]) - min(cells[0]) >= 16
    for call in solve_calls:
        assert 0 < largest_objective(call, 9) < 2**53


def largest_objective(call: dict, size: int) -> int:
    """The largest value a chunk objective can take: one value per cell, so the sum over cells
    of each cell's largest term (variable cell * N + value - 1 belongs to cell)."""
    largest: dict[int, int] = {}
    for variable, coefficient in zip(call["variables"], call["coefficients"], strict=True):
        largest[variable // size] = max(largest.get(variable // size, 0), coefficient)
    return sum(largest.values())


def test_a_chunk_too_long_for_an_exact_objective_is_refused():
    shape = cpsat.ShapeModel(9, (3, 3))
    shape.minimize_chunk(range(cpsat.chunk_length(9)))
    with pytest.raises(BackendFailure, match="overflows"):
        shape.minimize_chunk(range(cpsat.chunk_length(9) + 1))
    two_candidates = [0b110] * 81  # values 1 and 2 only: 2**53 - 1 fits, 2**54 - 1 does not
    shape.minimize_chunk(range(53), two_candidates)
    with pytest.raises(BackendFailure, match="overflows"):
        shape.minimize_chunk(range(54), two_candidates)
    assert shape.next_chunk(range(81), two_candidates) == list(range(53))


def test_a_floating_point_objective_is_refused():
    cp_model = pytest.importorskip("ortools.sat.python.cp_model")
    model = cp_model.CpModel()
    x = model.new_int_var(0, 9, "x")
    model.minimize(2**70 * x)  # beyond int64: the Python layer silently goes floating point
    with pytest.raises(BackendFailure, match="floating"):
        cpsat.check_integer_objective(model.proto, 1)


def test_an_objective_that_lost_terms_is_refused():
    proto = cmh.CpModelProto()
    cpsat.ProtoWriter(proto).new_variables(2, 0, 1)
    proto.objective.vars.extend([0, 1])
    proto.objective.coeffs.extend([1, 1])
    cpsat.check_integer_objective(proto, 2)
    with pytest.raises(BackendFailure, match="3 exact integer terms"):
        cpsat.check_integer_objective(proto, 3)


# -- statuses -------------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
def test_model_invalid_raises_backend_failure(mode, monkeypatch, backend):
    replace_status(monkeypatch, CpStatus.MODEL_INVALID)
    with pytest.raises(BackendFailure, match="MODEL_INVALID"):
        backend.solve(Grid.empty(4), mode=mode)


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
def test_unknown_without_a_time_limit_raises_backend_failure(mode, monkeypatch, backend):
    replace_status(monkeypatch, CpStatus.UNKNOWN)
    with pytest.raises(BackendFailure, match="UNKNOWN"):
        backend.solve(Grid.empty(4), mode=mode, limit=1000)  # 288 completions: limit not reached


@pytest.mark.parametrize(("strategy", "from_call"), [("objective", 2), ("search", 1)])
def test_unknown_under_a_time_limit_is_a_timeout(strategy, from_call, monkeypatch):
    replace_status(monkeypatch, CpStatus.UNKNOWN, from_call=from_call)
    result = get_backend("cpsat", strategy=strategy).solve(Grid.empty(9), time_limit=60.0)
    assert (result.status, result.solution) == (Status.TIMEOUT, None)


def test_unproven_stage_is_never_an_answer(monkeypatch, staged):
    replace_status(monkeypatch, CpStatus.FEASIBLE, from_call=3)
    with pytest.raises(BackendFailure, match="FEASIBLE"):
        staged.solve(Grid.empty(9))
    assert staged.solve(Grid.empty(9), time_limit=60.0).status is Status.TIMEOUT


def test_infeasible_after_the_first_stage_is_a_solver_failure(monkeypatch, staged):
    replace_status(monkeypatch, CpStatus.INFEASIBLE, from_call=2)
    with pytest.raises(BackendFailure, match="INFEASIBLE"):
        staged.solve(Grid.empty(9))


# -- the kept model, the uniqueness probe -------------------------------------------------------


def test_a_unique_puzzle_is_settled_by_the_probe_alone(solve_calls, staged):
    result = staged.solve(Grid.parse(G17))
    assert (result.stats["probe"], result.stats["stages"]) == ("one", 1)
    assert [call["enumerate"] for call in solve_calls] == [True]
    assert result.solution == get_backend("dfs").solve(Grid.parse(G17)).solution


def test_a_probe_that_meets_two_completions_hands_over_to_the_stages(staged):
    # Two givens fewer than a unique 17-clue puzzle: every value still given, several
    # completions, more than two stages.
    puzzle = Grid.parse(G17).with_values({9: 0, 76: 0})
    result = staged.solve(puzzle)
    assert result.stats["probe"] == "several" and result.stats["stages"] >= 3
    assert result.solution == get_backend("dfs").solve(puzzle).solution


def test_the_probe_is_skipped_when_two_values_are_absent(staged):
    puzzle = Grid.parse("12" + "0" * 79)  # 3..9 absent: swapping two of them is a completion too
    assert cpsat.may_be_unique(Grid.parse(G17)) and not cpsat.may_be_unique(puzzle)
    assert staged.solve(puzzle).stats["probe"] == "skipped"


def test_the_probe_finds_no_completion(staged):
    puzzle = Grid.parse(
        "000000010400000000020000000000050407008000300001090000300400200050100000000806001"
    )  # G17 with a 1 that no completion allows
    assert not puzzle.conflicts()
    result = staged.solve(puzzle)
    assert (result.status, result.stats["probe"]) == (Status.UNSATISFIABLE, "none")


def test_a_probe_stopped_by_the_time_limit_is_a_timeout(monkeypatch, staged):
    replace_status(monkeypatch, CpStatus.UNKNOWN)
    result = staged.solve(Grid.parse(G17), time_limit=60.0)
    assert (result.status, result.solution, result.stats["probe"]) == (
        Status.TIMEOUT,
        None,
        "timeout",
    )
    monkeypatch.undo()
    with pytest.raises(BackendFailure, match="UNKNOWN in the uniqueness probe"):
        replace_status(monkeypatch, CpStatus.UNKNOWN)
        staged.solve(Grid.parse(G17))  # no limit: UNKNOWN is a solver failure


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
@pytest.mark.parametrize("strategy", ["objective", "search"])
def test_the_kept_model_is_left_clean_even_after_a_failure(mode, strategy, monkeypatch):
    backend = get_backend("cpsat", strategy=strategy)
    puzzle = Grid.parse(SERG_FIRST)
    backend.solve(puzzle, mode=mode)
    # staged lex-min: fail in the second stage, after a freeze; the rest: their one call
    staged = (mode, strategy) == ("lexmin", "objective")
    replace_status(monkeypatch, CpStatus.MODEL_INVALID, from_call=2 if staged else 1)
    with pytest.raises(BackendFailure):
        backend.solve(puzzle, mode=mode)
    monkeypatch.undo()
    proto = backend._shapes[9, (3, 3), "boolean"].proto
    assert len(proto.assumptions) == 0 and not proto.has_objective()
    assert len(proto.search_strategy) == 0
    assert backend.solve(puzzle, mode=mode).solution.is_solution_of(puzzle)


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
@pytest.mark.parametrize("strategy", ["objective", "search"])
def test_from_16x16_the_boolean_model_fixes_the_givens_by_domain(mode, strategy):
    """Assumptions stay at a decision level and every learnt clause carries them; from
    GIVENS_AS_DOMAINS_FROM_SIZE the givens (and frozen chunks) narrow the literals' domains
    instead, and get them back, even after a failure."""
    puzzle = generated("multi-16x16.txt", [0])[0]
    backend = get_backend("cpsat", strategy=strategy)
    assert cpsat.GIVENS_AS_DOMAINS_FROM_SIZE == 16
    result = backend.solve(puzzle, mode=mode)
    assert result.solution.is_solution_of(puzzle)
    assert (result.stats["assumptions"], result.stats["givens"]) == (0, len(puzzle.givens()))
    if mode == "lexmin":
        assert result.solution == get_backend("dfs").solve(puzzle).solution
    proto = backend._shapes[16, (4, 4), "boolean"].proto
    assert all(list(v.domain) == [0, 1] for v in proto.variables)
    assert len(proto.assumptions) == 0 and len(proto.search_strategy) == 0
    small = backend.solve(Grid.parse(SERG_FIRST), mode=mode)  # below 16x16: assumptions
    assert small.stats["assumptions"] == small.stats["givens"] > 0


@pytest.mark.parametrize("mode", ["lexmin", "any", "count"])
@pytest.mark.parametrize("strategy", ["objective", "search"])
def test_the_integer_model_gets_its_domains_back_even_after_a_failure(mode, strategy, monkeypatch):
    backend = get_backend("cpsat", model="integer", strategy=strategy)
    puzzle = Grid.parse(SERG_FIRST)
    backend.solve(puzzle, mode=mode)
    replace_status(
        monkeypatch,
        CpStatus.MODEL_INVALID,
        from_call=2 if (mode, strategy) == ("lexmin", "objective") else 1,
    )
    with pytest.raises(BackendFailure):
        backend.solve(puzzle, mode=mode)
    monkeypatch.undo()
    proto = backend._shapes[9, (3, 3), "integer"].proto
    assert [list(v.domain) for v in proto.variables] == [[1, 9]] * 81
    assert len(proto.assumptions) == 0 and not proto.has_objective()
    assert len(proto.search_strategy) == 0
    assert backend.solve(puzzle, mode=mode).solution.is_solution_of(puzzle)


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
    assert str(cpsat.ShapeModel(size, box).proto) == str(reference_proto(size, box, "boolean"))
    for counts in (False, True):
        kept = cpsat.IntegerShapeModel(size, box, counts=counts)
        assert str(kept.proto) == str(reference_proto(size, box, "integer", counts))


def test_the_lexmin_strategy_lists_the_blank_cells_in_order(solve_calls):
    """Boolean model: the candidate literals of the blank cells, cell by cell, values ascending
    (a value a given peer holds is false before the first decision); integer model: the blank
    cells. Either way nothing else, and the first unfixed one decides."""
    puzzle = Grid.parse(SERG_FIRST)
    boolean, integer = get_backend("cpsat"), get_backend("cpsat", model="integer")
    assert boolean.solve(puzzle).solution == integer.solve(puzzle).solution
    candidates = boolean._shapes[9, (3, 3), "boolean"].candidates(puzzle.values)
    literals = [
        cell * 9 + value - 1
        for cell in puzzle.blanks()
        for value in range(1, 10)
        if candidates[cell] >> value & 1
    ]
    assert [call["strategy"] for call in solve_calls] == [[literals], [puzzle.blanks()]]
    assert len(literals) < 9 * len(puzzle.blanks())


def test_solution_bits_read_the_text_or_fall_back():
    proto = cmh.CpModelProto()
    cpsat.ProtoWriter(proto).new_variables(5, 0, 1)
    solution = cpsat.call_cp_sat(cmh.SolveWrapper(), proto, cpsat.new_parameters()).solution
    assert list(cpsat.solution_bits(solution)) == list(solution)
    assert isinstance(cpsat.solution_bits(solution), bytes)  # read from the C++ text
    assert cpsat.solution_bits((1, 0, 1)) == [1, 0, 1]  # "(1, 0, 1)": not the expected text
    assert cpsat.solution_bits([1, 2, 1]) == [1, 2, 1]  # not all 0/1


# -- options, versions, stats, imports ------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [
        {"workers": 0},
        {"workers": -2},
        {"workers": "two"},
        {"workers": True},
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

    assert cpsat.CpSatBackend.versions() == {"ortools": ortools.__version__}


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
        " get_backend('cpsat', strategy='objective', model='integer', counts='on').solve(g);"
        " bad = [m for m in ('pandas', 'numpy', 'ortools.sat.python.cp_model')"
        " if m in sys.modules];"
        " assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.slow
def test_empty_25x25_lexmin_by_objective(staged):
    result = staged.solve(Grid.empty(25))
    assert 625 / 11 > result.stats["stages"] > 1  # chunks of 11 cells at first, then longer
    assert {i: list(result.solution.rows()[i]) for i in EMPTY25_ROWS} == EMPTY25_ROWS
    assert result.solution.is_solution_of(Grid.empty(25))


# -- the integer model, the auto choices -----------------------------------------------------------

GENERATED = Path(__file__).resolve().parents[2] / "data" / "generated"


def generated(name: str, indices: Sequence[int]) -> list[Grid]:
    """Puzzles of a data/generated file, by their index among the puzzle lines."""
    lines = [
        line.strip()
        for line in (GENERATED / name).read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return [Grid.parse(lines[index]) for index in indices]


INTEGER_SEARCH = {"model": "integer", "strategy": "search"}


@pytest.mark.parametrize("strategy", ["objective", "search"])
def test_integer_model_lexmin_matches_brute_force(strategy):
    backend = get_backend("cpsat", model="integer", strategy=strategy)
    wrong = [
        grid for grid in SMALL_PUZZLES if backend.solve(grid).solution.values != brute_lexmin(grid)
    ]
    assert wrong == []
    stats = backend.solve(SMALL_PUZZLES[0]).stats
    assert stats["model"] == "integer" and stats["assumptions"] == 0
    assert stats["givens"] == len(SMALL_PUZZLES[0].givens()) > 0


@pytest.mark.parametrize("strategy", ["objective", "search"])
@pytest.mark.parametrize(("size", "box"), list(EMPTY_LEXMIN))
def test_integer_model_empty_grid_lexmin(size, box, strategy):
    backend = get_backend("cpsat", model="integer", strategy=strategy)
    assert backend.solve(Grid.empty(size, box=box)).solution.to_line() == EMPTY_LEXMIN[size, box]


@pytest.mark.parametrize(
    ("name", "indices"),
    [
        ("multi-4x4.txt", range(10)),
        ("multi-6x6.txt", range(10)),
        ("multi-9x9.txt", range(10)),
        ("multi-16x16.txt", range(0, 10, 3)),
        ("multi-20x20.txt", [3, 6]),
    ],
)
@pytest.mark.parametrize("model", ["integer", "boolean"])
def test_search_lexmin_equals_dfs_and_sat(name, indices, model):
    """The fixed search's first solution is the lex-min on either model (the argument is in the
    module docstring): the same grids as dfs and sat on puzzles with several completions."""
    pytest.importorskip("pysat")
    backend = get_backend("cpsat", model=model, strategy="search")
    dfs, sat = get_backend("dfs"), get_backend("sat")
    for grid in generated(name, indices):
        answer = backend.solve(grid)
        assert answer.stats["model"] == model and answer.stats["strategy"] == "search"
        assert answer.solution == dfs.solve(grid).solution == sat.solve(grid).solution, name


def test_integer_objective_chunks_are_exact():
    shape = cpsat.IntegerShapeModel(9, (3, 3))
    everything = shape.candidates([0] * 81)
    chunk = shape.next_chunk(range(81), everything)
    # Objective sum(place * value) <= 9 * (9**k - 1): below 2**53 for k cells, not for k + 1.
    assert 9 * 9 ** len(chunk) - 1 < 2**53 <= 9 * 9 ** (len(chunk) + 1) - 1
    shape.minimize_chunk(chunk, everything)
    proto = shape.proto
    assert sum(c * 9 for c in proto.objective.coeffs) < 2**53
    with pytest.raises(BackendFailure, match="overflows"):
        shape.minimize_chunk(range(len(chunk) + 1), everything)
    # Candidates 4..5 only: a radix of 2, so much longer chunks; a fixed cell adds no term.
    narrow = [0b110000] * 80 + [0b10000]
    assert len(shape.next_chunk(range(81), narrow)) == 49
    shape.minimize_chunk(range(75, 81), narrow)
    assert list(proto.objective.vars) == [79, 78, 77, 76, 75]
    assert list(proto.objective.coeffs) == [1, 2, 4, 8, 16]


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
    assert [backend.lexmin_strategy(n) for n in (9, 25, 30, 64)] == ["search"] * 4
    forced = get_backend("cpsat", model="boolean", strategy="objective")
    assert (forced.model_kind(64), forced.lexmin_strategy(64)) == ("boolean", "objective")
    stats = backend.solve(Grid.parse(SERG_FIRST)).stats
    assert (stats["model"], stats["strategy"], stats["stages"]) == ("boolean", "search", 1)
    big = Grid.empty(30)
    assert backend.prepare(big) and not backend.prepare(big)  # both models, outside the clock
    assert {key[2] for key in backend._shapes if key[0] == 30} == {"boolean", "integer"}
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


# -- the row counts -------------------------------------------------------------------------------


def test_auto_adds_the_row_counts_by_size_box_and_givens():
    backend = get_backend("cpsat")
    sizes = [30, 32, 35, 36, 42, 49, 56, 64]
    assert [backend.uses_counts(Grid.empty(size)) for size in sizes] == [
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
    assert backend.uses_counts(row_given) and not backend.uses_counts(more)
    assert get_backend("cpsat", counts="on").uses_counts(Grid.empty(9))
    assert not get_backend("cpsat", counts="off").uses_counts(Grid.empty(42))
    with pytest.raises(BackendOptionError):
        get_backend("cpsat", counts="yes")


def test_the_row_counts_go_into_the_lexmin_model_only():
    backend = get_backend("cpsat", model="integer", counts="on")
    grid = Grid.empty(9)
    assert backend.prepare(grid) and not backend.prepare(grid)
    plain_model = backend._shapes[9, (3, 3), "integer"]
    counted = backend._counted[9, (3, 3)]
    # 81 cells, 729 literals "cell == value", 9 rows x 2 cuts x 9 values "value left of the cut"
    assert len(counted.proto.variables) == 81 + 729 + 9 * 2 * 9
    assert len(plain_model.proto.variables) == 81
    assert backend.solve(grid).stats["row_counts"] is True
    assert backend.solve(grid).stats["variables"] == 81 + 729 + 9 * 2 * 9
    assert backend.solve(grid, mode="any").stats["row_counts"] is False
    assert backend.solve(grid).solution.to_line() == EMPTY_LEXMIN[9, None]
    plain = get_backend("cpsat", model="integer", counts="off")
    assert plain.solve(grid).stats["row_counts"] is False and not plain._counted


def test_the_row_counts_read_only_the_cells_of_a_solution():
    shape = cpsat.IntegerShapeModel(4, (2, 2), counts=True)
    cells = [1, 2, 3, 4] * 4
    assert shape.values_from(cells + [0, 1] * 40) == bytes(cells)
    with pytest.raises(BackendFailure):
        shape.values_from(cells[:-1])


@pytest.mark.parametrize("strategy", ["objective", "search"])
def test_row_counts_keep_the_lexmin_on_multi_solution_puzzles(strategy):
    """Implied constraints remove no completion, so the fixed search's first solution (and each
    stage's optimum) stays the lex-min: brute force on the small sets."""
    backend = get_backend("cpsat", model="integer", strategy=strategy, counts="on")
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
