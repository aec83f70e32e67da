"""Puzzle generation: unique, multi, unsat and adversarial puzzles of any size, from a seed.

Reproducible: the puzzles are a function of (kind, size, box, givens range, seed, index) and of the
package version. Every random choice is drawn from `random.Random` objects seeded from `seed`
(never the global generator), and every solver call asks an exact question with no time limit
(how many completions, up to a limit), so which counting backend answers changes the speed only.
Puzzle i depends on the seed and i alone, never on how many puzzles are asked for, so a run with
`count=5` yields the first five puzzles of a run with `count=50`. A later version may change the
algorithms and so the puzzles; `data/README.md` names the version that made each data file.

The kinds:
    unique       exactly one completion: a random completed grid, then givens removed in random
                 order while the completion stays unique, down to a target drawn from the givens
                 range (or until every given left is needed: a minimal puzzle).
    multi        at least two completions, counted up to `solution_limit`: the cells of a random
                 "swap cycle" of the completed grid (two values that can trade places) are blanked,
                 so a second completion exists whatever else is kept. Above 25x25 the limit is 2,
                 which the construction itself proves, so no solver is called (see
                 `multi_solution_limit`).
    unsat        no completion, yet no two equal givens in any unit: a unique puzzle with one given
                 changed to a value none of its peers hold, checked to have no completion.
    adversarial  a unique puzzle on which the naive row-major DFS needs many nodes: its values are
                 relabelled so that the solution's first row reads N..1, the blanks of the top
                 rows then cost the naive search the most backtracking; of several symmetric
                 variants the one with the most naive nodes is kept (counted up to `node_limit`).
"""

from __future__ import annotations

import enum
import functools
import logging
import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .backends import Backend, backend_class, get_backend
from .errors import GenerateError, SudokuError
from .formats import box_directive
from .grid import BLANK, Grid, Shape, geometry
from .naive import naive_solve
from .result import Mode, Status

log = logging.getLogger(__name__)

SOLUTION_LIMIT = 1000  # multi: completions are counted up to this many (up to 25x25)
# Above this size multi puzzles are counted up to 2 only, which the swap cycle already proves.
# Why: a count is an exact solver question with no time limit, and from 36x36 on it can take
# minutes: a 36x36 multi puzzle with half of the cells given (near the hardness peak of random
# givens) had no completion found in 60 s by sat, cpsat or dfs (cpsat then counted 2 in 57 s;
# `generate --size 36 --kind multi --seed 1` had not finished in 5 minutes); at 25 % given a
# count to 100 took 5-6 s on 36x36 and 49x49 (sat). The count is only a fact printed beside the
# puzzle, never an input to it, so the puzzles are the same with either limit.
FULL_COUNT_UP_TO_SIZE = 25
NAIVE_NODE_LIMIT = 2_000_000  # adversarial: naive nodes are counted up to this many
ADVERSARIAL_VARIANTS = 8  # adversarial: symmetric variants tried per puzzle
UNIQUE_ATTEMPTS = 3  # unique: completed grids tried when the range is not reached
UNSAT_ATTEMPTS = 5  # unsat: unique puzzles tried before giving up
# A completed grid is filled by the dfs backend from a random first row and column; it has never
# needed more than a second (25x25), so this limit only guards against a runaway search. Running
# out raises instead of falling back, so that the output never depends on the machine's speed.
FILL_TIME_LIMIT = 120.0
FILL_ATTEMPTS = 10  # first rows and columns drawn before giving up on a completed grid
# Above 25x25 the dfs fill is not dependable: from a random first row and column a 64x64 grid hit
# the 120 s limit (`generate --size 64 --kind multi --seed 1`), and from a random first row alone
# 2 of 5 seeds passed 20 s (sat: 4 of 5 past 20-60 s). So bigger grids start from the pattern
# grid and are mixed by a walk of random swap cycles (each step trades two values on one swap
# cycle, which keeps the grid valid), then shuffled like the others. No solver call at all.
PATTERN_FILL_ABOVE_SIZE = 25
SWAP_WALK_STEPS_PER_VALUE = 8  # walk length: this many steps per value (64x64: 512 steps, ~3 s)

# Counting up to 2 completions is the inner loop of the unique kind. Measured on minimal-puzzle
# runs of this generator (2-core VM, glucose4): dfs and sat tie on 8x8 and 9x9 (0.03 s, 0.10 s a
# puzzle), sat wins from 12x12 on (0.22 s vs 0.42 s; 16x16 1.9 s vs 93 s; on 25x25 below 300
# givens dfs needs up to 140 s for a single count where sat needs at most 7 s).
SAT_COUNTS_FROM_SIZE = 12

# Default givens ranges, just above where random removal ends (a minimal puzzle): at about 4
# givens on 4x4, 9-10 on 6x6, 24 on 9x9, 90 on 16x16 and 264 on 25x25, where counts get slow.
DEFAULT_GIVENS = {4: (4, 8), 6: (9, 16), 9: (22, 32), 16: (86, 120), 25: (290, 340)}


class Kind(str, enum.Enum):
    """What kind of puzzle to make."""

    UNIQUE = "unique"
    MULTI = "multi"
    UNSAT = "unsat"
    ADVERSARIAL = "adversarial"

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True)
class GivensRange:
    """How many givens a puzzle should keep: low..high, both included."""

    low: int
    high: int

    def __str__(self) -> str:
        return f"{self.low}..{self.high}"

    def __contains__(self, givens: object) -> bool:
        return isinstance(givens, int) and self.low <= givens <= self.high

    def draw(self, rng: random.Random) -> int:
        """A target number of givens, uniform over the range."""
        return rng.randint(self.low, self.high)


def parse_givens_range(text: str, *, size: int) -> GivensRange:
    """Parse 'A..B' (or a single number A) into a range of givens for an N x N grid.

    Raises:
        GenerateError: when the text is not one or two numbers joined by '..', the low end is
            above the high end, or the high end is above N*N.
    """
    low_text, separator, high_text = text.strip().partition("..")
    if not separator:
        high_text = low_text
    if not low_text.strip().isdigit() or not high_text.strip().isdigit():
        raise GenerateError(f"expected givens as A..B (e.g. 24..30), got {text!r}")
    low, high = int(low_text), int(high_text)
    if low > high:
        raise GenerateError(f"givens {text}: the low end {low} is above the high end {high}")
    if high > size * size:
        raise GenerateError(f"givens {text}: a {size}x{size} grid has only {size * size} cells")
    return GivensRange(low, high)


@dataclass(frozen=True)
class Request:
    """Everything that decides the puzzles of a run (the output is a function of this alone)."""

    kind: Kind
    size: int
    box: Shape
    givens: GivensRange
    seed: int
    count: int = 1
    solution_limit: int = SOLUTION_LIMIT  # make_request sets it by size (multi_solution_limit)
    node_limit: int = NAIVE_NODE_LIMIT
    variants: int = ADVERSARIAL_VARIANTS


def make_request(
    kind: Kind | str,
    *,
    size: int,
    box: Shape | None = None,
    givens: GivensRange | str | None = None,
    seed: int,
    count: int = 1,
) -> Request:
    """A checked request; `givens` defaults to `default_givens(size)`.

    Raises:
        GridShapeError: for a size or box that no Sudoku has.
        GenerateError: for an unknown kind, a bad givens range or a count below 1.
    """
    try:
        kind = Kind(kind)
    except ValueError:
        raise GenerateError(
            f"unknown kind {kind!r} (choose from {', '.join(str(k) for k in Kind)})"
        ) from None
    shape = geometry(size, box).box_shape
    if givens is None:
        givens = default_givens(size)
    elif isinstance(givens, str):
        givens = parse_givens_range(givens, size=size)
    if count < 1:
        raise GenerateError(f"count must be at least 1, got {count}")
    return Request(
        kind, size, shape, givens, seed, count, solution_limit=multi_solution_limit(size)
    )


def multi_solution_limit(size: int) -> int:
    """How far multi puzzles of this size are counted: SOLUTION_LIMIT up to
    FULL_COUNT_UP_TO_SIZE, above it 2 (the construction's own proof; no solver call)."""
    return SOLUTION_LIMIT if size <= FULL_COUNT_UP_TO_SIZE else 2


@dataclass(frozen=True)
class GeneratedPuzzle:
    """One generated puzzle and the facts checked about it.

    `completions` is exact (1 for unique and adversarial, 0 for unsat) except for multi, where it
    stops at the solution limit (`completions_capped`). `naive_nodes` (adversarial only) is the
    naive row-major DFS's node count, a lower bound when `naive_finished` is False.
    """

    index: int
    kind: Kind
    puzzle: Grid
    solution: Grid | None  # the one completion of unique and adversarial puzzles
    completions: int
    completions_capped: bool = False
    naive_nodes: int | None = None
    naive_finished: bool | None = None

    @property
    def givens(self) -> int:
        return len(self.puzzle.givens())

    def facts(self) -> dict[str, Any]:
        """The facts as JSON-ready scalars (the JSON Lines fields and the comment line)."""
        data: dict[str, Any] = {"givens": self.givens, "completions": self.completions}
        if self.kind is Kind.MULTI:
            data["completions_capped"] = self.completions_capped
        if self.naive_nodes is not None:
            data["naive_nodes"] = self.naive_nodes
            data["naive_finished"] = self.naive_finished
        return data


# -- completed grids ------------------------------------------------------------------------------


def random_completed_grid(
    rng: random.Random, size: int, *, box: Shape | None = None, filler: Backend | None = None
) -> Grid:
    """A random full grid: a random first row and first column completed by the dfs backend,
    then shuffled by a random symmetry (`shuffle_grid`). Above PATTERN_FILL_ABOVE_SIZE: the
    pattern grid mixed by a walk of swap cycles (`swap_walk`), then shuffled.

    Raises:
        GenerateError: when the dfs fill runs past FILL_TIME_LIMIT, or FILL_ATTEMPTS first rows
            and columns all fail to complete (neither has happened).
    """
    if size > PATTERN_FILL_ABOVE_SIZE:
        walked = swap_walk(pattern_grid(size, box=box), rng, steps=SWAP_WALK_STEPS_PER_VALUE * size)
        return shuffle_grid(walked, rng)
    solver = filler or get_backend("dfs")
    for _ in range(FILL_ATTEMPTS):
        seed_grid = random_first_row_and_column(rng, size, box=box)
        result = solver.solve(seed_grid, mode=Mode.ANY, time_limit=FILL_TIME_LIMIT)
        if result.status is Status.TIMEOUT:
            raise GenerateError(
                f"the dfs backend took over {FILL_TIME_LIMIT:g} s to complete "
                f"a random {size}x{size} grid"
            )
        if result.solution is not None:
            return shuffle_grid(result.solution, rng)
        log.info("a random first row and column of a %dx%d grid had no completion", size, size)
    raise GenerateError(f"no completed {size}x{size} grid in {FILL_ATTEMPTS} tries")


def pattern_grid(size: int, *, box: Shape | None = None) -> Grid:
    """The completed grid whose cell (r, c) holds (C * (r mod R) + r div R + c) mod N + 1, for
    boxes of R rows and C columns (9x9: rows 123456789, 456789123, 789123456, 234567891, ...)."""
    geo = geometry(size, box)
    box_rows, box_cols = geo.box_rows, geo.box_cols
    return Grid(
        tuple(
            (box_cols * (row % box_rows) + row // box_rows + column) % size + 1
            for row in range(size)
            for column in range(size)
        ),
        geo.box_shape,
    )


def swap_walk(grid: Grid, rng: random.Random, *, steps: int) -> Grid:
    """The grid after `steps` random moves, each trading two random values on one random swap
    cycle of theirs (a move keeps every unit's values, so the grid stays complete and valid)."""
    for _ in range(steps):
        first, second = rng.sample(range(1, grid.size + 1), 2)
        cycle = rng.choice(swap_cycles(grid, first, second))
        grid = swapped(grid, cycle)
    return grid


def random_first_row_and_column(rng: random.Random, size: int, *, box: Shape | None = None) -> Grid:
    """A blank grid but for a random first row and a random first column that fit the boxes."""
    geo = geometry(size, box)
    values = [BLANK] * (size * size)
    first_row = rng.sample(range(1, size + 1), size)
    values[:size] = first_row
    # The column's cells inside the first box must avoid the values of that box's first row.
    in_first_box = set(first_row[: geo.box_cols])
    rest = [value for value in range(1, size + 1) if value != first_row[0]]
    top = rng.sample([value for value in rest if value not in in_first_box], geo.box_rows - 1)
    below = [value for value in rest if value not in top]
    rng.shuffle(below)
    for row, value in enumerate(top + below, start=1):
        values[row * size] = value
    return Grid.from_values(values, box=geo.box_shape)


def shuffle_grid(grid: Grid, rng: random.Random) -> Grid:
    """The grid under a random symmetry: values relabelled, rows within bands, bands, columns
    within stacks, stacks, and a transposition when the boxes are square.

    Every symmetry maps completions to completions, so a puzzle and its image have the same number
    of completions.
    """
    geo = grid.geometry
    size = grid.size
    relabel = [BLANK] + rng.sample(range(1, size + 1), size)
    rows = _shuffled_lines(rng, size, geo.box_rows)
    columns = _shuffled_lines(rng, size, geo.box_cols)
    values = [relabel[grid.values[row * size + column]] for row in rows for column in columns]
    shuffled = Grid(tuple(values), grid.box)
    if geo.box_rows == geo.box_cols and rng.random() < 0.5:
        return transpose(shuffled)
    return shuffled


def _shuffled_lines(rng: random.Random, size: int, band: int) -> list[int]:
    """Row (or column) indices: the bands of `band` lines in random order, each shuffled inside."""
    bands = rng.sample(range(size // band), size // band)
    return [b * band + line for b in bands for line in rng.sample(range(band), band)]


def transpose(grid: Grid) -> Grid:
    """Rows become columns (a symmetry only when the boxes are square)."""
    size = grid.size
    return Grid(
        tuple(grid.values[column * size + row] for row in range(size) for column in range(size)),
        grid.box[::-1],
    )


def relabel_first_row_descending(puzzle: Grid, solution: Grid) -> tuple[Grid, Grid]:
    """Puzzle and solution with values renamed so that the solution's first row reads N..1."""
    size = puzzle.size
    rename = [BLANK] * (size + 1)
    for column, value in enumerate(solution.values[:size]):
        rename[value] = size - column
    return (
        Grid(tuple(rename[v] for v in puzzle.values), puzzle.box),
        Grid(tuple(rename[v] for v in solution.values), solution.box),
    )


# -- counting completions -------------------------------------------------------------------------


@functools.cache
def sat_backend_usable() -> bool:
    """Whether the sat backend is registered, importable and has its solver package."""
    try:
        return backend_class("sat").is_available()
    except (ImportError, AttributeError, SudokuError) as error:
        log.info("sat backend not usable (%s); counting with dfs", error)
        return False


def counting_backend_name(size: int) -> str:
    """The fastest exact counter for this size (see SAT_COUNTS_FROM_SIZE); dfs when the sat
    backend is not usable."""
    name = "sat" if size >= SAT_COUNTS_FROM_SIZE else "dfs"
    if name == "sat" and not sat_backend_usable():
        log.warning(
            "the sat backend is not usable: counting %dx%d completions with dfs, "
            "which is slower (the puzzles are the same)",
            size,
            size,
        )
        return "dfs"
    return name


class CompletionCounter:
    """Counts completions exactly (no time limit) with one kept backend; `on_count`, if given,
    is called with the number of counts so far after each one."""

    def __init__(self, backend: Backend, on_count: Callable[[int], None] | None = None) -> None:
        self.backend = backend
        self.calls = 0
        self.on_count = on_count

    def count(self, grid: Grid, limit: int) -> int:
        """Completions of `grid`, up to `limit`."""
        self.calls += 1
        result = self.backend.solve(grid, mode=Mode.COUNT, limit=limit)
        assert result.count is not None, "count mode without a time limit always counts"
        if self.on_count is not None:
            self.on_count(self.calls)
        return result.count

    def is_unique(self, grid: Grid) -> bool:
        return self.count(grid, 2) == 1

    def has_completion(self, grid: Grid) -> bool:
        return self.count(grid, 1) == 1


# -- unique ---------------------------------------------------------------------------------------


def is_forced(values: list[int], cell: int, peers: tuple[int, ...], size: int) -> bool:
    """Whether the givens among a cell's peers hold every value but its own: then blanking it
    keeps exactly the same completions, with no count needed."""
    seen = {values[peer] for peer in peers}
    seen.discard(BLANK)
    return len(seen) == size - 1 and values[cell] not in seen


def remove_givens_while_unique(
    solution: Grid, rng: random.Random, counter: CompletionCounter, *, target: int
) -> Grid:
    """Blank the cells of a completed grid in random order, each only if the puzzle stays unique,
    until `target` givens are left or no given can go (a minimal puzzle)."""
    geo = solution.geometry
    values = list(solution.values)
    givens = len(values)
    order = list(geo.cells)
    rng.shuffle(order)
    for cell in order:
        if givens <= target:
            break
        if not is_forced(values, cell, geo.peers[cell], solution.size):
            kept = values[cell]
            values[cell] = BLANK
            still_unique = counter.is_unique(Grid(tuple(values), solution.box))
            values[cell] = kept
            if not still_unique:
                continue
        values[cell] = BLANK
        givens -= 1
    return Grid(tuple(values), solution.box)


def unique_puzzle(
    rng: random.Random, request: Request, counter: CompletionCounter, filler: Backend
) -> tuple[Grid, Grid]:
    """(puzzle, solution): a unique puzzle with givens in the range when the removal reaches it;
    otherwise, after UNIQUE_ATTEMPTS grids, the one with the fewest givens."""
    target = request.givens.draw(rng)
    best: tuple[Grid, Grid] | None = None
    for _ in range(UNIQUE_ATTEMPTS):
        solution = random_completed_grid(rng, request.size, box=request.box, filler=filler)
        puzzle = remove_givens_while_unique(solution, rng, counter, target=target)
        if len(puzzle.givens()) in request.givens:
            return puzzle, solution
        if best is None or len(puzzle.givens()) < len(best[0].givens()):
            best = puzzle, solution
    assert best is not None
    log.info(
        "unique: stopped at a minimal puzzle of %d givens, above %s",
        len(best[0].givens()),
        request.givens,
    )
    return best


# -- multi ----------------------------------------------------------------------------------------


def swap_cycles(solution: Grid, first: int, second: int) -> list[list[int]]:
    """The groups of cells holding `first` or `second` whose two values can trade places.

    In each unit the cell of `first` and the cell of `second` are linked; a connected group swapped
    leaves every unit with both values once, so it turns the grid into another completed grid.
    """
    geo = solution.geometry
    cells = [cell for cell, value in enumerate(solution.values) if value in (first, second)]
    parent = {cell: cell for cell in cells}

    def root(cell: int) -> int:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    for unit in geo.units:
        pair = [cell for cell in unit if solution.values[cell] in (first, second)]
        parent[root(pair[0])] = root(pair[1])
    groups: dict[int, list[int]] = {}
    for cell in cells:
        groups.setdefault(root(cell), []).append(cell)
    return list(groups.values())


def smallest_swap_cycle(solution: Grid, rng: random.Random) -> list[int]:
    """The cells of a smallest swap cycle over all pairs of values (ties broken at random)."""
    size = solution.size
    cycles = [
        cycle
        for first in range(1, size + 1)
        for second in range(first + 1, size + 1)
        for cycle in swap_cycles(solution, first, second)
    ]
    smallest = min(len(cycle) for cycle in cycles)
    return rng.choice([cycle for cycle in cycles if len(cycle) == smallest])


def multi_puzzle(
    rng: random.Random, request: Request, counter: CompletionCounter, filler: Backend
) -> tuple[Grid, int]:
    """(puzzle, completions up to the limit): givens drawn from outside a swap cycle, which is
    blank, so the grid and its swapped twin both complete the puzzle.

    With a limit of 2 or less the two known completions answer the count (each is checked to
    complete the puzzle), so no solver is asked.
    """
    target = request.givens.draw(rng)
    solution = random_completed_grid(rng, request.size, box=request.box, filler=filler)
    cycle = smallest_swap_cycle(solution, rng)
    in_cycle = set(cycle)
    outside = [cell for cell in solution.geometry.cells if cell not in in_cycle]
    kept = set(rng.sample(outside, min(target, len(outside))))
    puzzle = Grid(
        tuple(value if cell in kept else BLANK for cell, value in enumerate(solution.values)),
        solution.box,
    )
    if request.solution_limit <= 2:
        twin = swapped(solution, cycle)
        if not (
            solution.is_solution_of(puzzle) and twin.is_solution_of(puzzle) and twin != solution
        ):
            raise GenerateError("a swap cycle did not give a second completion (a bug)")
        return puzzle, request.solution_limit
    return puzzle, counter.count(puzzle, request.solution_limit)


def swapped(solution: Grid, cycle: list[int]) -> Grid:
    """The completed grid with the two values of a swap cycle traded on its cells."""
    first, second = sorted({solution.values[cell] for cell in cycle})
    trade = {first: second, second: first}
    values = list(solution.values)
    for cell in cycle:
        values[cell] = trade[values[cell]]
    return Grid(tuple(values), solution.box)


# -- unsat ----------------------------------------------------------------------------------------


def changed_given_without_completion(
    puzzle: Grid, rng: random.Random, counter: CompletionCounter
) -> Grid | None:
    """The puzzle with one given changed to a value that none of its peers hold, chosen (in random
    order) so that no completion is left; None when every such change still completes."""
    geo = puzzle.geometry
    changes = []
    for cell, value in puzzle.givens().items():
        held = {puzzle.values[peer] for peer in geo.peers[cell]}
        changes += [
            (cell, other)
            for other in range(1, puzzle.size + 1)
            if other != value and other not in held
        ]
    rng.shuffle(changes)
    for cell, other in changes:
        candidate = puzzle.with_values({cell: other})
        if not counter.has_completion(candidate):
            return candidate
    return None


def unsat_puzzle(
    rng: random.Random, request: Request, counter: CompletionCounter, filler: Backend
) -> Grid:
    """A puzzle with no completion and no repeated given, from a unique puzzle.

    Raises:
        GenerateError: when UNSAT_ATTEMPTS unique puzzles all complete after every change.
    """
    for _ in range(UNSAT_ATTEMPTS):
        puzzle, _solution = unique_puzzle(rng, request, counter, filler)
        changed = changed_given_without_completion(puzzle, rng, counter)
        if changed is not None:
            return changed
    raise GenerateError(
        f"no unsat puzzle found in {UNSAT_ATTEMPTS} tries "
        f"({request.size}x{request.size}, givens {request.givens})"
    )


# -- adversarial ----------------------------------------------------------------------------------


def adversarial_puzzle(
    rng: random.Random, request: Request, counter: CompletionCounter, filler: Backend
) -> tuple[Grid, Grid, int, bool]:
    """(puzzle, solution, naive nodes, finished): of `request.variants` symmetric variants of a
    unique puzzle, relabelled so the solution's first row is N..1, the costliest for naive DFS.

    A variant that reaches the node limit cannot be beaten, so the search stops there.
    """
    puzzle, solution = unique_puzzle(rng, request, counter, filler)
    best: tuple[Grid, Grid, int, bool] | None = None
    for _ in range(request.variants):
        variant_puzzle, variant_solution = symmetric_variant(puzzle, solution, rng)
        variant_puzzle, variant_solution = relabel_first_row_descending(
            variant_puzzle, variant_solution
        )
        naive = naive_solve(variant_puzzle, node_limit=request.node_limit)
        if best is None or naive.nodes > best[2]:
            best = variant_puzzle, variant_solution, naive.nodes, naive.finished
        if not naive.finished:
            break
    assert best is not None
    return best


def symmetric_variant(puzzle: Grid, solution: Grid, rng: random.Random) -> tuple[Grid, Grid]:
    """The same random symmetry applied to a puzzle and its solution."""
    state = rng.getstate()
    shuffled_puzzle = shuffle_grid(puzzle, rng)
    rng.setstate(state)  # replay the same draws, so both grids get the same symmetry
    shuffled_solution = shuffle_grid(solution, rng)
    return shuffled_puzzle, shuffled_solution


# -- runs -----------------------------------------------------------------------------------------


def puzzle_rngs(seed: int) -> Iterator[random.Random]:
    """One generator per puzzle, drawn in turn from the seed: puzzle i depends on i alone."""
    master = random.Random(seed)
    while True:
        yield random.Random(master.getrandbits(64))


def generate_one(
    index: int, rng: random.Random, request: Request, counter: CompletionCounter, filler: Backend
) -> GeneratedPuzzle:
    """Puzzle `index` of a run, made from its own random generator."""
    kind = request.kind
    if kind is Kind.UNIQUE:
        puzzle, solution = unique_puzzle(rng, request, counter, filler)
        return GeneratedPuzzle(index, kind, puzzle, solution, 1)
    if kind is Kind.MULTI:
        puzzle, completions = multi_puzzle(rng, request, counter, filler)
        return GeneratedPuzzle(
            index,
            kind,
            puzzle,
            None,
            completions,
            completions_capped=completions >= request.solution_limit,
        )
    if kind is Kind.UNSAT:
        return GeneratedPuzzle(index, kind, unsat_puzzle(rng, request, counter, filler), None, 0)
    puzzle, solution, nodes, finished = adversarial_puzzle(rng, request, counter, filler)
    return GeneratedPuzzle(
        index, kind, puzzle, solution, 1, naive_nodes=nodes, naive_finished=finished
    )


def generate(
    request: Request,
    *,
    counter_name: str | None = None,
    on_count: Callable[[int], None] | None = None,
) -> Iterator[GeneratedPuzzle]:
    """The puzzles of a request, one at a time, in index order.

    `counter_name` overrides the counting backend (the puzzles stay the same, only the speed
    changes). `on_count` is called with the number of completion counts so far after each one:
    the progress within a puzzle, which can take minutes on a sparse 25x25.
    """
    name = counter_name or counting_backend_name(request.size)
    with get_backend(name) as backend, get_backend("dfs") as filler:
        counter = CompletionCounter(backend, on_count)
        log.info(
            "generate %s %dx%d: counting with %s", request.kind, request.size, request.size, name
        )
        for index, rng in zip(range(request.count), puzzle_rngs(request.seed), strict=False):
            yield generate_one(index, rng, request, counter, filler)


# -- writing --------------------------------------------------------------------------------------

KIND_DESCRIPTIONS = {
    Kind.UNIQUE: "exactly one completion; givens removed at random while it stays unique",
    Kind.MULTI: "two or more completions; the cells of a swap cycle are left blank",
    Kind.UNSAT: "no completion and no two equal givens in a unit; a unique puzzle with one given "
    "changed",
    Kind.ADVERSARIAL: "one completion, first row N..1: costly for the naive row-major DFS",
}


def default_givens(size: int) -> GivensRange:
    """The givens range used when none is asked for: DEFAULT_GIVENS, else 45% to 55% of the
    cells."""
    low, high = DEFAULT_GIVENS.get(size, (round(0.45 * size * size), round(0.55 * size * size)))
    return GivensRange(low, high)


def command_line(request: Request) -> str:
    """The canonical `sudoku-cp generate` command that reproduces a request."""
    parts = ["sudoku-cp generate", f"--kind {request.kind}", f"--size {request.size}"]
    if request.box != geometry(request.size).box_shape:
        parts.append(f"--box {request.box[0]}x{request.box[1]}")
    parts += [f"--count {request.count}", f"--givens {request.givens}", f"--seed {request.seed}"]
    return " ".join(parts)


def header_lines(request: Request, *, version: str) -> list[str]:
    """The comment lines that open a generated file in the line format."""
    limits = {
        Kind.MULTI: f" (counted up to {request.solution_limit})",
        Kind.ADVERSARIAL: f" (nodes counted up to {request.node_limit}, best of "
        f"{request.variants} variants)",
    }
    lines = [
        f"# {command_line(request)}",
        f"# sudoku-cp {version}: the same command and version give the same puzzles",
        f"# {request.kind}: {KIND_DESCRIPTIONS[request.kind]}{limits.get(request.kind, '')}",
        "# each puzzle line (N*N symbols, 0 blank) follows a comment with its facts",
    ]
    if request.box != geometry(request.size).box_shape:
        lines.append(box_directive(request.box))  # read back with this shape, not the default
    return lines


def fact_comment(generated: GeneratedPuzzle) -> str:
    """'# 3: givens=24 completions=1' (with '1000+' for a capped count, '>=' for capped nodes)."""
    completions = (
        f"{generated.completions}+" if generated.completions_capped else str(generated.completions)
    )
    text = f"# {generated.index + 1}: givens={generated.givens} completions={completions}"
    if generated.naive_nodes is not None:
        relation = "=" if generated.naive_finished else ">="
        text += f" naive_nodes{relation}{generated.naive_nodes}"
    return text


def summary_line(puzzles: list[GeneratedPuzzle], request: Request) -> str:
    """The closing comment: how many puzzles, their givens, and how many missed the range."""
    givens = [generated.givens for generated in puzzles]
    noun = "puzzle" if len(puzzles) == 1 else "puzzles"
    text = (
        f"# {len(puzzles)} {noun}, givens {min(givens)}..{max(givens)} "
        f"(mean {sum(givens) / len(givens):.1f})"
    )
    outside = sum(1 for count in givens if count not in request.givens)
    if outside:
        text += f", {outside} outside {request.givens} (stopped at a minimal puzzle)"
    return text


def json_record(generated: GeneratedPuzzle, request: Request, *, version: str) -> dict[str, Any]:
    """The JSON Lines object of one generated puzzle."""
    return {
        "index": generated.index,
        "kind": str(generated.kind),
        "size": request.size,
        "box": f"{request.box[0]}x{request.box[1]}",
        "seed": request.seed,
        "puzzle": generated.puzzle.to_line(),
        "solution": generated.solution.to_line() if generated.solution else None,
        **generated.facts(),
        "version": version,
        "command": command_line(request),
    }
