"""Shared puzzles, references and fixtures of the cpsat backend's tests."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from sudoku_cp import generate
from sudoku_cp.backends import get_backend
from sudoku_cp.backends.cpsat import CpSatBackend, call
from sudoku_cp.grid import Grid, Shape

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
SERG_FIRST = (
    "800000000095000000076000000000426798000571243000893165000000916000030487"
    "000010532"
)  # the first of serg_benchmark: several completions
G17 = "000000010400000000020000000000050407008000300001090000300400200050100000000806000"
# Rows 2, 3 and 6 of the empty 16x16 and 25x25 lex-mins (0-based 1, 2 and 5, as the reference
# notes number them).
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
GENERATED = Path(__file__).resolve().parents[3] / "data" / "generated"
INTEGER_SEARCH = {"model": "integer", "lexmin": "search"}


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


def generated(name: str, indices: Sequence[int]) -> list[Grid]:
    """Puzzles of a data/generated file, by their index among the puzzle lines."""
    lines = [
        line.strip()
        for line in (GENERATED / name).read_text().splitlines()
        if line.strip() and not line.startswith("#")
    ]
    return [Grid.parse(lines[index]) for index in indices]


# -- fixtures -----------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def backend() -> CpSatBackend:
    return get_backend("cpsat")  # type: ignore[return-value]


@pytest.fixture(scope="module")
def staged() -> CpSatBackend:
    """The staged objective (`auto` takes the search)."""
    return get_backend("cpsat", lexmin="objective")  # type: ignore[return-value]


@pytest.fixture
def solve_calls(monkeypatch: pytest.MonkeyPatch) -> list[dict]:
    """What each CP-SAT call was given: parameters and the model's objective and hints."""
    calls: list[dict] = []
    call.warm_up()  # once per process, before the spy: not a call of any puzzle
    real_call = call.call_cp_sat

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

    monkeypatch.setattr(call, "call_cp_sat", spy)
    return calls


def replace_status(monkeypatch: pytest.MonkeyPatch, status, *, from_call: int = 1) -> None:
    """Make CP-SAT solve as usual but report `status` from the `from_call`-th call on."""
    real_call = call.call_cp_sat
    calls = itertools.count(1)

    def fake(wrapper, proto, parameters):
        response = real_call(wrapper, proto, parameters)
        if next(calls) >= from_call:
            response.status = status
        return response

    monkeypatch.setattr(call, "call_cp_sat", fake)
