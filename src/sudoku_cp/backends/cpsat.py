"""The `cpsat` backend: Sudoku as an OR-Tools CP-SAT model.

Two models, one chosen per grid size (option `model`, `auto` by default), each built once per grid
shape and kept by the backend (in `prepare`, before the puzzle's clock starts):

- **boolean**: a Boolean per (cell, value), every cell exactly one value, every unit every value
  exactly once (the extended encoding, whose unit propagation finds naked and hidden singles). A
  puzzle poses its givens as CP-SAT *assumptions* on that kept model and takes them away again.
- **integer**: one integer 1..N per cell and an `AllDifferent` per unit. A puzzle poses its givens
  by narrowing the given cells' domains in the kept model's proto to their value, and puts the
  domains back afterwards (assumptions need Boolean literals, which this model does not have).

`auto` takes the integer model for lex-min from `INTEGER_FROM_SIZE` on, and the Boolean model
otherwise: the Boolean model serves the staged objective (the lex-min default up to 25x25) with
the shortest stages, and its free search was the faster for `any` at every size measured; the
integer one took the fixed search through the empty 36x36 lex-min 6-8x faster (see
`_shape_template` and docs/backends.md for the figures).

Lex-min ("objective" strategy), in two steps:

1. Uniqueness probe. When the givens could have one completion only (at least N - 1 distinct values
   given: two absent values could otherwise be swapped) and the stages below would be three or
   more, enumerate completions up to two in one call. One completion and the search exhausted: it
   is the only one, so it is the lex-min.
2. Staged objective, for the rest: the blank cells, row-major, are cut into chunks; each stage
   minimises one chunk read as a mixed-radix number (Boolean model: a cell's digit is the rank of
   its value among the values no filled peer holds; integer model: its value less its smallest
   candidate; the first cell weighing most), then freezes the chunk at its optimum (more
   assumptions, or narrowed domains) and moves on. A chunk is as long as keeps every objective
   value exact (below 2**53), so every stage is exact.

The "search" strategy keeps only the fixed search: the first solution of a row-major,
smallest-value decision strategy (`FIXED_SEARCH`, presolve off, symmetry detection off, one
worker). "auto" (the default) takes the objective up to `SEARCH_FROM_SIZE` - 1 (unchanged there;
its answer does not rest on the search argument below) and the search from there on, where the
objective needs a hundred stages or more (empty 36x36: 1296 cells in chunks of 10), each paying
its own proof: the empty 30x30 objective was unfinished after 120 s, its search took 0.7 s.
From COUNTS_FROM_SIZE up (box sides not both powers of two), for puzzles with at most N givens,
that search runs on an integer model that also carries implied row counts (`add_row_counts`),
which let bounds propagation see the pigeonholes of the big empty grids: empty 42x42 in ~5 s
instead of ~190-230 s, 49x49 and 56x56 in ~4 s instead of no answer in 300 s.

Why the first solution of that search is the lex-min. Under those parameters CP-SAT is one
CDCL search over the model as written (no presolve: no variable is replaced by a representative
or removed, no symmetry is broken) whose every decision is "the first not-yet-fixed cell, in
row-major order, takes its smallest value still in its domain" (Boolean model: the first unfixed
literal set true, literals ordered cell by cell and value by value, which is the same thing).
Let S* be the lex-min completion. Invariant: every literal on the trail is implied by the model
together with the decisions above it, since unit propagation, the AllDifferent propagators and
learnt clauses are all sound (a learnt clause is implied by the model alone). Claim: as long as
every decision agrees with S*, S* satisfies everything on the trail. Take the first decision that
disagrees: cell c set to v != S*[c]. All cells before c are fixed (it is the first unfixed cell),
and by induction to S*'s values. S*[c] was still in c's domain (S* satisfies the trail), and v is
the smallest value in the domain, so v < S*[c]. A solution found under this decision would agree
with S* before c and be smaller at c: smaller than S*, impossible. So the search below it fails,
the conflict analysis learns a clause implied by the model that refutes it, and the search
backjumps; it never reports a solution there. The only solution it can reach is therefore the one
whose decisions all agree with S*: S* itself. A deduction made before the search (probing, which
`configure_lean` switches off anyway) is also implied by the model and cannot exclude S*. Presolve
or a second worker break this: presolve searches a rewritten model (the decision goes to a
representative, whose smallest value is not the cell's), and another worker may report its own
solution first. Both are measured pitfalls (below) and tested.

The row counts (`add_row_counts`: the lex-min integer model from COUNTS_FROM_SIZE, option
`counts`) keep this argument. Each variable they add is a function of the cells (a literal
"cell == v", a Boolean "v is among the row's first k cells"), and every completion, with them so
set, satisfies every constraint they add (a row holds each value once, so its first k cells hold
exactly k values): they remove no completion, S* extends to a solution of the whole model, and the
propagation they add is sound like the rest. The decision strategy still lists the cells alone,
and once every cell is fixed propagation fixes the added variables, so the first solution is S*.
They change how soon a wrong prefix is refuted, not which solution comes first (tested: the same
answers with and without them).

Pitfalls of ortools 9.15 guarded against here (see ../shared/reference/lexmin-methods.md, §1):
with presolve on or more than one worker the fixed search's first solution is not the lex-min;
objective coefficients at or beyond 2**53 give wrong "optimal" answers or MODEL_INVALID, and
beyond int64 the Python layer silently switches to a floating-point objective; solution hints
between stages crash presolve (or-tools #5288, #5091), so none are given; enumerating with several
workers reports solutions twice, so counting uses one worker and de-duplicates anyway.

ortools is imported only inside functions: choosing another backend never pays for loading it.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from ..errors import BackendFailure
from ..grid import BLANK, Grid, Shape, geometry
from ..result import Mode, Status
from .base import Backend, BackendOption, Deadline, Outcome

if TYPE_CHECKING:  # only for annotations; never imported at run time from here
    from ortools.sat.python import cp_model

logger = logging.getLogger(__name__)

STRATEGIES = ("auto", "objective", "search")
MODELS = ("auto", "boolean", "integer")
COUNTS = ("auto", "on", "off")  # the row counts of the lex-min integer model (add_row_counts)
# `auto` choices, by grid size N (measured: see _shape_template and docs/backends.md).
INTEGER_FROM_SIZE = 26  # the integer model from here on, the Boolean one below
SEARCH_FROM_SIZE = 26  # lex-min by the fixed search from here on, the staged objective below
EXACT_INTEGER_LIMIT = 2**53  # every objective value must stay below this to be exact
DEFAULT_WORKERS = 1  # for `any`; on this 2-core machine one worker beat two (see CpSatBackend)
# The uniqueness probe is one extra call for a puzzle with several completions and saves all
# stages but one for a unique one: with two stages it would only break even (serg_benchmark, all
# improper, 2 stages: 2 calls without it, 3 with), from three it is worth it (17clue, unique,
# 3 stages: 1 call instead of 3).
PROBE_FROM_STAGES = 3
# stats["probe"] of a lex-min by objective, by what the uniqueness probe found
PROBE_VERDICTS: dict[Status | None, str] = {
    Status.SOLVED: "one",
    None: "several",
    Status.UNSATISFIABLE: "none",
    Status.TIMEOUT: "timeout",
}


def chunk_length(size: int) -> int:
    """The most cells a stage can minimise as one base-N number with N**k - 1 < 2**53."""
    if size < 2:
        raise ValueError(f"size must be >= 2, got {size}")
    length = 1
    while size ** (length + 1) - 1 < EXACT_INTEGER_LIMIT:
        length += 1
    return length


@functools.cache
def ortools_version() -> str:
    """The installed OR-Tools version."""
    import ortools

    # getattr: the package has no type information for mypy to find __version__ in.
    return str(getattr(ortools, "__version__"))  # noqa: B009


def may_be_unique(grid: Grid) -> bool:
    """False when the puzzle surely has several completions: two values absent from the givens
    can be swapped in any completion. (Only decides whether the uniqueness probe is worth a call.)
    """
    return len(set(grid.values) - {BLANK}) >= grid.size - 1


# -- the models ---------------------------------------------------------------------------------


# Boolean per (cell, value) or an integer per cell with AllDifferent: measured on this 2-core
# machine, ortools 9.15, one worker, presolve off. With the old parameters (root probing and
# inprocessing on), lexmin by the fixed search, build included:
#   empty 16x16: Boolean 0.34 s (56k branches) vs integer 0.59 s (104k branches);
#   empty 25x25: Boolean 4.8 s vs integer 8.9 s; 9x9 medians: top95 8.5 vs 8.6 ms,
#   serg 5.9 vs 7.6 ms; `any` medians (1 worker): top95 3.4 vs 4.0 ms.
# With today's lean parameters (`configure_lean`), fixed search, CPU seconds, build included:
#   empty 25x25: Boolean 0.31 s (2,761 branches) vs integer 0.18 s (1,557);
#   empty 36x36: Boolean 48.2 s (376k branches, 370k conflicts) vs integer 5.8 s (51k, 49k).
# On 9x9 to 25x25 the default lex-min is the staged objective, where the Boolean model's
# per-candidate ranks give the shortest stages, so `auto` keeps the Boolean model there
# (INTEGER_FROM_SIZE) and takes the integer one from 26 up. Our reading of the 36x36 branch counts:
# at that size the pigeonhole arguments that refute a wrong set of values in a row or box are what
# the search must learn, and AllDifferent's bounds/matching reasoning sees them where clause
# propagation on exactly-ones has to learn them conflict by conflict. A hybrid (both, channelled)
# was far slower (empty 16x16: 16 s).
#
# Why one kept model with the givens as assumptions rather than a model per puzzle with only the
# candidates of the blank cells (first 300 of 17clue / serg_benchmark, fixed search, medians,
# measured side by side): building the small model in Python took 1.5 ms (3.4 ms through the
# CpModel helpers) and solving it 0.5-0.9 ms; posing 17-30 assumptions on the kept model costs
# microseconds and solving it 1.2-1.3 ms. Copying the kept model per puzzle (0.4-0.6 ms) and fixing
# the givens by a constraint was slower than assumptions (3.0 vs 2.3 ms in total). The integer
# model has no literal to assume, so it narrows the given cells' domains in place (two integers
# per given, put back after the puzzle; nothing is copied). Assumptions would need a literal per
# (cell, value) channelled by `x == v` only-enforce-if: measured on 9x9 (first 200, fixed search,
# CPU medians), domains 4.3 ms against 6.6 ms on 17clue and 3.3 against 7.2 ms on serg_benchmark,
# the same answers (the assumption figure without the backend's own overhead).
@functools.cache
def _shape_template(size: int, box: Shape, decide: bool) -> cp_model.CpModel:
    """The Boolean model of every grid of this shape, built once per process; backends copy it.

    Variable ``cell * N + value - 1`` is the Boolean "cell holds value". With `decide`, the model
    carries the lex-min decision strategy: first undecided cell row-major, smallest value first.
    """
    from ortools.sat.python import cp_model

    units = geometry(size, box).units
    model = cp_model.CpModel()
    # Unnamed: names cost a fifth of the build time and nobody reads them.
    literals = [model.new_bool_var("") for _ in range(size**3)]
    for cell in range(size * size):
        model.add_exactly_one(literals[cell * size : (cell + 1) * size])
    for unit in units:
        for offset in range(size):
            model.add_exactly_one([literals[cell * size + offset] for cell in unit])
    if decide:
        # Literal true first = the value first; literals run row-major, values ascending.
        model.add_decision_strategy(literals, cp_model.CHOOSE_FIRST, cp_model.SELECT_MAX_VALUE)
    return model


@functools.cache
def _integer_template(
    size: int, box: Shape, decide: bool, counts: bool = False
) -> cp_model.CpModel:
    """The integer model of every grid of this shape, built once per process; backends copy it.

    Variable ``cell`` is the cell's value, 1..N; one `AllDifferent` per unit. With `decide`, the
    model carries the lex-min decision strategy: first unfixed cell row-major, its smallest value.
    With `counts`, the row counts of `add_row_counts` follow the cells (variables N*N and up).
    """
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    cells = [model.new_int_var(1, size, "") for _ in range(size * size)]
    for unit in geometry(size, box).units:
        model.add_all_different([cells[cell] for cell in unit])
    if counts:
        add_row_counts(model, cells, size, box)
    if decide:
        model.add_decision_strategy(cells, cp_model.CHOOSE_FIRST, cp_model.SELECT_MIN_VALUE)
    return model


# The row counts, measured: CPU seconds of one solve, without / with them, by a bare script (this
# model, `configure_fixed_search`, nothing else), one run each, the machine's other core busy; the
# build (the model in Python) is outside a puzzle's clock. Empty 36x36: 3.9-6.2 s (50,796
# branches, 49,499 conflicts) / 1.4 s (972 branches, no conflict), build 1.5 s; 42x42: 186-226 s
# (1.70M conflicts) / 5.1 s (15,589 conflicts), build 2.1 s; 49x49: no answer in 250 s / 3.0 s
# (643 conflicts); 56x56: no answer in 300 s (docs/backends.md) / 5.5 s (no conflict); 35x35:
# 2.3 / 1.5 s. Where the greedy fill meets no dead end they only cost: 25x25 0.21 / 0.32 s, 27x27
# 0.30 / 0.52, 28x28 0.21 / 0.39, 30x30 0.56 / 0.64, 32x32 (4x8 boxes) 0.39 / 0.84, 64x64 (8x8)
# 3.5 / 7.4 s. Hence `counts_wanted`. Counts for the columns as well (cut at the box heights)
# were worse overall: 42x42 3.1 s, but 36x36 1.7 s and 49x49 4.4 s, and a longer build.
# With givens they did not pay (bench_cpsat_big.py --multi, integer lex-min, CPU s without /
# with): 36x36 with 20% random givens 4.4 / 8.6 s (the same 21k conflicts), 30% 1.1 / 3.1 s, 70%
# 0.05 / 0.51 s (loading the bigger model), 5%, 10% and 50% no answer in 60 s either way; so
# `auto` keeps them for empty-ish grids, at most one row's worth of givens (COUNTS_MAX_GIVENS).
COUNTS_FROM_SIZE = 33
COUNTS_MAX_GIVENS = 1  # times N


def counts_wanted(size: int, box: Shape, givens: int = 0) -> bool:
    """Whether `auto` puts the row counts into the lex-min integer model for a puzzle of this
    shape with this many givens: from COUNTS_FROM_SIZE up, unless both box sides are powers of
    two (16x16, 32x32, 64x64: the row-major greedy fill meets no dead end there, measured above,
    so the counts only cost), and only with at most COUNTS_MAX_GIVENS * N givens."""
    rows, columns = box
    powers_of_two = all(side & (side - 1) == 0 for side in (rows, columns))
    return size >= COUNTS_FROM_SIZE and not powers_of_two and givens <= COUNTS_MAX_GIVENS * size


def add_row_counts(model: cp_model.CpModel, cells: Sequence[Any], size: int, box: Shape) -> None:
    """Add implied constraints that let bounds propagation see Hall sets along a row.

    `AllDifferent` in CP-SAT 9.15 propagates bounds only; the lex-min of an empty grid with boxes
    that are not powers of two runs into pigeonholes it cannot see (empty 36x36, third row, its
    first 12 cells set: the 12 values the last two boxes already hold can only go into the 12
    cells of the two middle boxes, so values 1..12 cannot; the fixed search refuted that with
    ~12,000 conflicts). Per cell and value a literal ``b == (cell == value)`` (two half-reified
    equalities: ``cell == value`` if b, ``cell != value`` if not b). Per row, value v and cut k
    after each box but the last (k = box width, 2 * box width, ...), a Boolean ``p`` "v is among
    the row's first k cells": ``p == sum(b over the first k cells)``, ``p + sum(b over the other
    cells) == 1`` and, per row and cut, ``sum(p over the values) == k``. Every completion
    satisfies them with b and p as named (each row holds each value once), so they remove no
    completion and no lex-min; they only give linear propagation the counting step (a row prefix
    of k cells holds exactly k values) that the AllDifferent bounds propagator lacks.
    """
    _rows, width = box
    literals = [[model.new_bool_var("") for _ in range(size)] for _ in range(size * size)]
    for cell, cell_literals in enumerate(literals):
        for value, literal in enumerate(cell_literals, start=1):
            model.add(cells[cell] == value).only_enforce_if(literal)
            model.add(cells[cell] != value).only_enforce_if(~literal)
    for row in range(size):
        row_cells = range(row * size, (row + 1) * size)
        for cut in range(width, size, width):
            first, rest = row_cells[:cut], row_cells[cut:]
            among = []
            for value in range(size):
                inside = model.new_bool_var("")
                model.add(inside == sum(literals[cell][value] for cell in first))
                model.add(inside + sum(literals[cell][value] for cell in rest) == 1)
                among.append(inside)
            model.add(sum(among) == cut)


class KeptModel:
    """A backend's own copy of the model of one grid shape, reused puzzle after puzzle.

    A puzzle poses its givens (`posed`), may add an objective and freeze cells (the chunks of the
    staged lex-min), and leaves the model as it found it. Subclasses say how.
    """

    kind: ClassVar[str] = ""

    def __init__(self, size: int, box: Shape, *, decide: bool) -> None:
        from ortools.sat.python import cp_model

        self.size = size
        self.model = cp_model.CpModel()
        self.model.proto.copy_from(self._build(size, box, decide).proto)
        shape_geometry = geometry(size, box)
        self._units = shape_geometry.units
        unit_index = {unit: index for index, unit in enumerate(self._units)}
        self._units_of_cell = [
            tuple(unit_index[unit] for unit in units) for units in shape_geometry.units_of
        ]
        self._all_values = (1 << (size + 1)) - 2  # bits 1..N

    @contextlib.contextmanager
    def posed(self, grid: Grid) -> Iterator[int]:
        """The model with this puzzle's givens posed (yields their number); afterwards, even
        on an error, the model has no given, frozen cell or objective again."""
        proto = self.model.proto
        self._release()
        proto.clear_objective()
        try:
            yield self._pose(grid)
        finally:
            self._release()
            proto.clear_objective()

    def _build(self, size: int, box: Shape, decide: bool) -> cp_model.CpModel:
        """The template this kept model copies (built once per process and shape)."""
        raise NotImplementedError

    def _pose(self, grid: Grid) -> int:
        raise NotImplementedError

    def _release(self) -> None:
        raise NotImplementedError

    def freeze(self, cells: Sequence[int], values: Sequence[int]) -> None:
        """Fix these cells to their values in `values` (for the current puzzle only)."""
        raise NotImplementedError

    def candidates(self, values: Sequence[int]) -> list[int]:
        """Per cell, the bit mask (bit v for value v) of the values no filled peer holds."""
        used = [0] * len(self._units)
        units_of_cell = self._units_of_cell
        for cell, value in enumerate(values):
            if value:
                bit = 1 << value
                for unit in units_of_cell[cell]:
                    used[unit] |= bit
        everything = self._all_values
        return [everything & ~(used[a] | used[b] | used[c]) for a, b, c in self._units_of_cell]

    def radix(self, mask: int) -> int:
        """How many values a cell with these candidates spans in a chunk's number (>= 1)."""
        raise NotImplementedError

    def next_chunk(self, cells: Sequence[int], candidates: Sequence[int]) -> list[int]:
        """The longest prefix of `cells` whose objective stays exact (never empty): the product
        of their radices, times `_headroom`, below 2**53."""
        chunk: list[int] = []
        product = self._headroom()
        for cell in cells:
            count = self.radix(candidates[cell])
            if chunk and product * count - 1 >= EXACT_INTEGER_LIMIT:
                break
            product *= count
            chunk.append(cell)
        return chunk

    def _headroom(self) -> int:
        """What the product of the radices is multiplied by before the 2**53 test."""
        return 1

    def minimize_chunk(self, cells: Sequence[int], candidates: Sequence[int] | None = None) -> None:
        """Replace the objective by the chunk read as one mixed-radix number, its first cell
        weighing most; each cell's digit (`_digit_terms`) in its `radix`.

        Raises:
            BackendFailure: when the chunk is too long for an exact objective or CP-SAT did not
                keep the objective as integers.
        """
        if candidates is None:
            candidates = [self._all_values] * (self.size * self.size)
        variables: list[int] = []
        coefficients: list[int] = []
        place = 1
        for cell in reversed(cells):
            mask = candidates[cell]
            for variable, weight in self._digit_terms(cell, mask):
                variables.append(variable)
                coefficients.append(place * weight)
            place *= self.radix(mask)
        self._set_objective(variables, coefficients, self._headroom() * place - 1, len(cells))

    def _digit_terms(self, cell: int, mask: int) -> list[tuple[int, int]]:
        """The cell's digit as (variable, weight) terms, for a cell with these candidates."""
        raise NotImplementedError

    def _set_objective(
        self, variables: list[int], coefficients: list[int], largest: int, cells: int
    ) -> None:
        if largest >= EXACT_INTEGER_LIMIT:
            raise BackendFailure(
                f"a chunk of {cells} cells overflows an exact objective "
                f"(its largest value is {largest} >= 2**53)"
            )
        proto = self.model.proto
        proto.clear_objective()
        proto.objective.vars.extend(variables)
        proto.objective.coeffs.extend(coefficients)
        check_integer_objective(self.model, len(variables))

    def values_from(self, solution: Sequence[int]) -> bytes:
        """The grid's values, row-major, one byte each, from a CP-SAT solution vector.

        Compact and exact, so it also serves as the key that tells completions apart.

        Raises:
            BackendFailure: when the vector does not hold one value per cell.
        """
        raise NotImplementedError


class ShapeModel(KeptModel):
    """The Boolean model: givens and frozen cells are assumptions on "cell holds value"."""

    kind = "boolean"

    def __init__(self, size: int, box: Shape, *, decide: bool) -> None:
        super().__init__(size, box, decide=decide)
        # The value each variable stands for, by variable index: a solution vector then reads as
        # the grid's values with one `compress` (row-major, one true literal per cell).
        self._value_of_variable = [variable % size + 1 for variable in range(size**3)]
        self._values_of_mask: dict[int, list[int]] = {}  # candidate mask -> its values, ascending

    def _build(self, size: int, box: Shape, decide: bool) -> cp_model.CpModel:
        return _shape_template(size, box, decide)

    def literal(self, cell: int, value: int) -> int:
        """The variable index of the Boolean "cell holds value"."""
        return cell * self.size + value - 1

    def given_literals(self, grid: Grid) -> list[int]:
        """The literals that pose the puzzle's givens."""
        size = self.size
        return [cell * size + value - 1 for cell, value in enumerate(grid.values) if value]

    def _pose(self, grid: Grid) -> int:
        givens = self.given_literals(grid)
        self.model.proto.assumptions.extend(givens)
        return len(givens)

    def _release(self) -> None:
        self.model.proto.assumptions.clear()

    def assume(self, literals: Sequence[int]) -> None:
        """Add assumptions (for the current puzzle only: `posed` takes them away)."""
        self.model.proto.assumptions.extend(literals)

    def freeze(self, cells: Sequence[int], values: Sequence[int]) -> None:
        """Fix these cells to their values in `values` (assumptions, never a hint)."""
        self.assume([self.literal(cell, values[cell]) for cell in cells])

    def radix(self, mask: int) -> int:
        return max(1, mask.bit_count())

    def _digit_terms(self, cell: int, mask: int) -> list[tuple[int, int]]:
        """The rank of the cell's value among its candidates: the Boolean of its k-th candidate
        weighs k. Its largest value, the product of the candidate counts less one, must stay
        below 2**53; with every value a candidate this is the base-N number of
        `chunk_length(N)` cells. Values that are no candidate (a filled peer holds them) get no
        term: no completion of this puzzle gives them to the cell."""
        size = self.size
        values = self._values_of_mask.get(mask)
        if values is None:
            values = self._values_of_mask[mask] = [v for v in range(1, size + 1) if mask >> v & 1]
        return [(cell * size + value - 1, rank) for rank, value in enumerate(values[1:], start=1)]

    def values_from(self, solution: Sequence[int]) -> bytes:
        values = bytes(itertools.compress(self._value_of_variable, solution_bits(solution)))
        if len(values) != self.size * self.size:
            raise BackendFailure(f"CP-SAT gave {len(values)} values for {self.size**2} cells")
        return values


class IntegerShapeModel(KeptModel):
    """The integer model: givens and frozen cells narrow their cell's domain to the value, in
    the kept proto, until the puzzle is done."""

    kind = "integer"

    def __init__(self, size: int, box: Shape, *, decide: bool, counts: bool = False) -> None:
        self.counts = counts  # with the row counts of `add_row_counts` (after the cells)
        super().__init__(size, box, decide=decide)
        self._fixed: list[int] = []  # cells whose domain is narrowed now

    def _build(self, size: int, box: Shape, decide: bool) -> cp_model.CpModel:
        return _integer_template(size, box, decide, self.counts)

    def _fix(self, cell: int, value: int) -> None:
        domain = self.model.proto.variables[cell].domain
        domain[0] = value
        domain[1] = value
        self._fixed.append(cell)

    def _pose(self, grid: Grid) -> int:
        givens = 0
        for cell, value in enumerate(grid.values):
            if value:
                self._fix(cell, value)
                givens += 1
        return givens

    def _release(self) -> None:
        variables, size = self.model.proto.variables, self.size
        for cell in self._fixed:
            domain = variables[cell].domain
            domain[0] = 1
            domain[1] = size
        self._fixed.clear()

    def freeze(self, cells: Sequence[int], values: Sequence[int]) -> None:
        for cell in cells:
            self._fix(cell, values[cell])

    def radix(self, mask: int) -> int:
        if not mask:
            return 1
        return mask.bit_length() - (mask & -mask).bit_length() + 1  # largest - smallest + 1

    def _headroom(self) -> int:
        # The objective is sum(place * value) over the chunk, its smallest candidates left in:
        # at most N times the sum of the places, which is below their product.
        return self.size

    def _digit_terms(self, cell: int, mask: int) -> list[tuple[int, int]]:
        """The cell's integer itself, weight 1: its value less its smallest candidate, in the
        radix of its span of candidates (largest - smallest + 1). The objective, the sum of
        place * value, differs from that number by a constant and stays below N times the
        product of the radices, which `next_chunk` keeps below 2**53."""
        return [(cell, 1)] if self.radix(mask) > 1 else []

    def values_from(self, solution: Sequence[int]) -> bytes:
        cells = self.size * self.size
        if self.counts:  # the row counts' variables follow the cells: read the cells only
            if len(solution) < cells:
                raise BackendFailure(f"CP-SAT gave {len(solution)} values for {cells} cells")
            values = bytes(solution[index] for index in range(cells))
        else:
            text = str(solution)
            try:
                values = (
                    bytes(int(part) for part in text[1:-1].split(","))
                    if text[:1] == "["
                    else bytes(solution)
                )
            except ValueError:
                values = bytes(solution)
        if len(values) != cells:
            raise BackendFailure(f"CP-SAT gave {len(values)} values for {self.size**2} cells")
        return values


_BITS = bytes.maketrans(b"01", b"\x00\x01")


def solution_bits(solution: Sequence[int]) -> Sequence[int]:
    """A 0/1 solution vector as bytes, read from its C++ text ("[0, 1, 0]") when that has the
    expected form, else element by element.

    Iterating CP-SAT's repeated field from Python costs 0.2 us an element (160 us for a 9x9's
    729 Booleans, more than the rest of a puzzle's Python); printing it is done in C++ (12 us).
    """
    text = str(solution).encode()
    count = len(solution)
    if len(text) == 3 * count and text[:1] == b"[" and text[-1:] == b"]":
        bits = text[1::3].translate(_BITS)
        if len(bits) == count and not bits.translate(None, b"\x00\x01"):
            return bits
    return list(solution)


def check_integer_objective(model: cp_model.CpModel, terms: int) -> None:
    """Make sure CP-SAT holds the objective as `terms` exact integer terms.

    The Python layer silently turns an objective with a coefficient beyond int64 (or a float) into
    a floating-point objective, whose "optimum" is not exact.

    Raises:
        BackendFailure: when the objective is floating point or lost terms.
    """
    proto = model.proto
    if proto.has_floating_point_objective():
        raise BackendFailure("CP-SAT turned the lex-min objective into a floating-point one")
    coefficients = list(proto.objective.coeffs)
    if len(coefficients) != terms or any(abs(c) >= EXACT_INTEGER_LIMIT for c in coefficients):
        raise BackendFailure(
            f"the lex-min objective should have {terms} exact integer terms, "
            f"CP-SAT holds {len(coefficients)}"
        )


# -- solver parameters --------------------------------------------------------------------------


def configure_lean(parameters: Any) -> None:
    """Skip the root-level work that costs more than it saves on Sudoku.

    Probing every Boolean at the root and SAT inprocessing (vivification) turned a 9x9 that needs
    7 branches into 1,100-1,400 branches of preprocessing; the LP relaxation of the exactly-ones
    is never read by a fixed search. Solve medians, first 300 of serg_benchmark, fixed search:
    7.9 ms with all three, 0.50 ms without (17clue: 1.49 vs 0.85 ms); empty 25x25 search-only
    0.60 vs 0.16 s, empty 16x16 0.15 vs 0.012 s. These only drop deductions made before the search,
    so the fixed search's order (and with it the lex-min) is untouched.
    """
    parameters.cp_model_probing_level = 0
    parameters.use_sat_inprocessing = False
    parameters.linearization_level = 0


def configure_fixed_search(parameters: Any) -> None:
    """Make CP-SAT follow the model's decision strategy and nothing else.

    Presolve rewrites cells into functions of representatives (and breaks symmetries), and other
    workers report their own solutions: either way the first solution is no longer the lex-min.
    """
    from ortools.sat.python import cp_model

    parameters.search_branching = cp_model.FIXED_SEARCH
    parameters.cp_model_presolve = False
    parameters.num_workers = 1
    # Symmetry detection still runs with presolve off; on an empty 25x25 it costs 0.2 s per call
    # (lexmin 4.4 s without it, 5.7 s with it; search-only 0.45 s vs 1.2 s), and symmetry
    # breaking has no place in a search whose first solution must be the lex-min.
    parameters.symmetry_level = 0
    configure_lean(parameters)


def configure_enumeration(parameters: Any) -> None:
    """Enumerate every solution with one worker (several report duplicates and overshoot)."""
    parameters.enumerate_all_solutions = True
    parameters.num_workers = 1
    # Presolve off: counting was as fast without it, and it avoids presolve's duplicate
    # enumeration (or-tools #4640). No symmetry detection: it only costs time here (empty 9x9,
    # 1000 completions: 0.22 s without, 0.28 s with) and on an empty 25x25 it ate a 0.4 s budget
    # before the first branch.
    parameters.cp_model_presolve = False
    parameters.symmetry_level = 0
    configure_lean(parameters)


def configure_free_search(parameters: Any) -> None:
    """CP-SAT's own search for `any`, without presolve, symmetry detection or the root work of
    `configure_lean`: on the kept model with assumed givens, presolve and probing cost far more
    than the search (median ms, first 150 of 17clue / serg_benchmark: 15.5 / 15.8 with CP-SAT's
    defaults, 8.1 / 8.6 lean, 1.1 / 1.0 lean without presolve; the old per-puzzle model with
    defaults took 4.1 / 8.3)."""
    parameters.cp_model_presolve = False
    parameters.symmetry_level = 0
    configure_lean(parameters)


def set_time_budget(parameters: Any, deadline: Deadline) -> float | None:
    """Give the solver what is left of the puzzle's budget; return it (None: no limit).

    Without a limit nothing is set: CP-SAT keeps its own default (no limit), never a huge number.
    """
    remaining = deadline.remaining()
    if remaining is not None:
        parameters.max_time_in_seconds = remaining
    return remaining


@functools.cache
def warm_up() -> None:
    """Solve a one-Boolean model once per process: CP-SAT's first call pays ~6 ms of one-off set-up
    that belongs to no puzzle."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    model.new_bool_var("")
    solver = cp_model.CpSolver()
    solver.parameters.num_workers = 1
    solver.parameters.catch_sigint_signal = False
    solver.solve(model)


# -- counting -----------------------------------------------------------------------------------


@dataclass
class SolutionTally:
    """Distinct solutions seen, up to a limit; the first one kept."""

    limit: int
    seen: set[bytes] = field(default_factory=set)
    first: bytes | None = None
    reported: int = 0  # callbacks, duplicates included

    def record(self, solution: bytes) -> bool:
        """Count a solution once; return True when the limit is reached."""
        self.reported += 1
        if len(self.seen) < self.limit and solution not in self.seen:
            self.seen.add(solution)
            if self.first is None:
                self.first = solution
        return self.reached()

    def reached(self) -> bool:
        return len(self.seen) >= self.limit

    @property
    def count(self) -> int:
        return len(self.seen)


@functools.cache
def _tallying_callback_class() -> type:
    """The solution callback class (built on first use: its base class lives in ortools)."""
    from ortools.sat.python import cp_model

    class TallyingCallback(cp_model.CpSolverSolutionCallback):
        """Feeds each reported solution to a tally and stops the search at its limit."""

        def __init__(self, tally: SolutionTally, shape: KeptModel) -> None:
            super().__init__()
            self.tally = tally
            self.shape = shape

        def on_solution_callback(self) -> None:
            if self.tally.reached():
                return  # a solution reported after stop_search: not counted
            if self.tally.record(self.shape.values_from(self.response_proto.solution)):
                self.stop_search()

    return TallyingCallback


@functools.cache
def _first_solution_clock_class() -> type:
    """A callback that notes when the first solution arrives (where the lex-min time goes)."""
    from ortools.sat.python import cp_model

    class FirstSolutionClock(cp_model.CpSolverSolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.at: float | None = None

        def on_solution_callback(self) -> None:
            if self.at is None:
                self.at = time.perf_counter()

    return FirstSolutionClock


# -- the backend --------------------------------------------------------------------------------


class _TimedOut(Exception):
    """Raised inside a solve when the budget ran out; turned into TIMEOUT."""


@dataclass
class _Run:
    """One puzzle's solver calls: the solver, the budget and the counters for the stats."""

    solver: Any
    deadline: Deadline
    stages: int = 0
    branches: int = 0
    conflicts: int = 0
    solve_seconds: float = 0.0
    last_budget: float | None = None

    def solve(self, model: Any, callback: Any = None) -> Any:
        """One CP-SAT call within what is left of the budget; returns its raw status.

        Raises:
            _TimedOut: when no time is left before the call.
        """
        budget = set_time_budget(self.solver.parameters, self.deadline)
        if budget is not None and budget <= 0.0:
            raise _TimedOut
        start = time.perf_counter()
        status = self.solver.solve(model, callback)
        self.solve_seconds += time.perf_counter() - start
        self.stages += 1
        self.branches += self.solver.num_branches
        self.conflicts += self.solver.num_conflicts
        self.last_budget = budget
        return status

    def ran_out_of_time(self) -> bool:
        """Whether the last call stopped short because of the time budget.

        Time is the only limit we give CP-SAT, so a call under a budget that stops unfinished
        ran out of it. The wall clock is not a reliable witness: CP-SAT also charges its
        deterministic time against the limit (symmetry detection on an empty 25x25 stopped a
        0.4 s call after 0.22 s).
        """
        return self.last_budget is not None

    def failure(self, status: Any, what: str) -> BackendFailure:
        """The error for a status that should not happen here."""
        return BackendFailure(f"CP-SAT returned {self.solver.status_name(status)} {what}")


class CpSatBackend(Backend):
    """OR-Tools CP-SAT, every size and mode: lex-min by a staged lexicographic objective on the
    Boolean model up to 25x25, by the fixed row-major search on the integer model from 26x26
    (options `strategy` and `model`, both `auto` by default; see the module docstring).

    `workers` is the number of CP-SAT workers for `any` (lex-min stages and counting always use
    one: see the module docstring). Default 1, measured on this 2-core machine with the earlier
    model built per puzzle: `any` medians with 1 / 2 workers (two runs each, other jobs
    running): top95 4.1-5.0 / 5.1-5.4 ms, serg_benchmark[:200] 6.8-7.0 / 7.7-8.7 ms, empty 25x25
    1.7-2.2 / 2.1-2.2 s; only the empty 16x16 gained from two (0.33-0.51 / 0.27-0.36 s).
    Earlier, quieter: 4 workers were slower still.

    The backend keeps, per grid shape, two copies of the shape's model (with and without the
    lex-min decision strategy), of the kind `model` picks for that size; `prepare` makes them,
    and imports OR-Tools, outside the clock.
    """

    name = "cpsat"
    description = (
        "OR-Tools CP-SAT model; lex-min by a staged exact objective on Booleans, "
        "from 26x26 by a fixed row-major search on integers"
    )
    requires = ("ortools",)
    packages: ClassVar[tuple[str, ...]] = ("ortools",)
    setup_modules: ClassVar[tuple[str, ...]] = ("ortools.sat.python.cp_model",)
    options: ClassVar[tuple[BackendOption, ...]] = (
        BackendOption(
            "strategy",
            "lexmin: staged exact objective, or the first solution of the "
            "fixed row-major search (its proof in the module docstring); auto: "
            f"objective below {SEARCH_FROM_SIZE}x{SEARCH_FROM_SIZE}, search from there",
            "auto",
            choices=STRATEGIES,
            flag="--cpsat-strategy",
        ),
        BackendOption(
            "model",
            "boolean: a Boolean per cell and value, exactly-ones; integer: an "
            "integer per cell, AllDifferent per unit (empty 36x36 lexmin 6-8x faster, "
            "any slower); auto: integer for lexmin from "
            f"{INTEGER_FROM_SIZE}x{INTEGER_FROM_SIZE}, else boolean",
            "auto",
            choices=MODELS,
        ),
        BackendOption(
            "workers",
            "CP-SAT search workers",
            DEFAULT_WORKERS,
            kind=int,
            minimum=1,
            flag="--workers",
        ),
        BackendOption(
            "counts",
            "implied row counts in the lex-min integer model (a Boolean per "
            "row, value and box boundary: is the value left of it), which let the "
            "fixed search see pigeonholes (empty 42x42 5 s instead of 190 s); auto: "
            f"from {COUNTS_FROM_SIZE}x{COUNTS_FROM_SIZE} unless both box sides are "
            "powers of two, for puzzles with at most N givens",
            "auto",
            choices=COUNTS,
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.workers: int = self.option_values["workers"]
        self.strategy: str = self.option_values["strategy"]
        self.model_choice: str = self.option_values["model"]
        self.counts: str = self.option_values["counts"]
        # (size, box, kind) -> (model with the lex-min decision strategy, model without)
        self._shapes: dict[tuple[int, Shape, str], tuple[KeptModel, KeptModel]] = {}
        # (size, box) -> the lex-min integer model with the row counts, made for the puzzles
        # that want it (`uses_counts`)
        self._counted: dict[tuple[int, Shape], IntegerShapeModel] = {}

    def model_kind(self, size: int, mode: Mode = Mode.LEXMIN) -> str:
        """The model this backend uses for grids of this size in this mode: `auto` takes the
        integer model for lex-min from INTEGER_FROM_SIZE up, the Boolean one otherwise (`any`
        and `count` too: their free search was faster on the Boolean model at every size
        measured, 25x25 to 64x64)."""
        if self.model_choice != "auto":
            return self.model_choice
        return "integer" if mode is Mode.LEXMIN and size >= INTEGER_FROM_SIZE else "boolean"

    def uses_counts(self, grid: Grid) -> bool:
        """Whether this backend's lex-min by the integer model takes the model with the row counts
        for this puzzle (`add_row_counts`; `auto`: `counts_wanted`)."""
        if self.counts != "auto":
            return self.counts == "on"
        return counts_wanted(grid.size, grid.box, len(grid.givens()))

    def lexmin_strategy(self, size: int) -> str:
        """The lex-min strategy this backend uses for grids of this size."""
        if self.strategy != "auto":
            return self.strategy
        return "search" if size >= SEARCH_FROM_SIZE else "objective"

    def prepare(self, grid: Grid) -> bool:
        """Import OR-Tools, warm CP-SAT up and copy this shape's models, once per shape (the
        models of every mode: `prepare` does not know the mode, and it runs outside the clock)."""
        made = False
        for kind in sorted({self.model_kind(grid.size, mode) for mode in Mode}):
            key = (grid.size, grid.box, kind)
            if key in self._shapes:
                continue
            warm_up()
            kept: type[KeptModel] = IntegerShapeModel if kind == "integer" else ShapeModel
            self._shapes[key] = (
                kept(grid.size, grid.box, decide=True),
                kept(grid.size, grid.box, decide=False),
            )
            made = True
        # The lex-min integer model with the row counts, when this puzzle wants it (prepare does
        # not know the mode either: a puzzle that wants it in `any` mode makes it too).
        if (
            self.model_kind(grid.size) == "integer"
            and self.uses_counts(grid)
            and (grid.size, grid.box) not in self._counted
        ):
            warm_up()
            self._counted[grid.size, grid.box] = IntegerShapeModel(
                grid.size, grid.box, decide=True, counts=True
            )
            made = True
        return made

    def close(self) -> None:
        """Drop the kept models."""
        self._shapes.clear()
        self._counted.clear()

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        from ortools.sat.python import cp_model

        self.prepare(grid)  # a no-op after Backend.solve; here for direct callers
        kind = self.model_kind(grid.size, mode)
        decided, free = self._shapes[grid.size, grid.box, kind]
        shape = decided if mode is Mode.LEXMIN else free
        if mode is Mode.LEXMIN and kind == "integer" and self.uses_counts(grid):
            shape = self._counted[grid.size, grid.box]
        run = _Run(cp_model.CpSolver(), deadline)
        # CP-SAT's own SIGINT handler kills the process on Ctrl-C after a first solve; leave
        # Ctrl-C to Python so solve and crosscheck can stop cleanly and report what was done.
        run.solver.parameters.catch_sigint_signal = False
        proto = shape.model.proto
        stats: dict[str, Any] = {
            "model": kind,
            "ortools": ortools_version(),
            "variables": len(proto.variables),
            "constraints": len(proto.constraints),
            "row_counts": isinstance(shape, IntegerShapeModel) and shape.counts,
        }
        start = time.perf_counter()
        with shape.posed(grid) as givens:
            # The integer model poses its givens as narrowed domains, not assumptions.
            stats.update(
                givens=givens,
                assumptions=givens if kind == "boolean" else 0,
                build_seconds=time.perf_counter() - start,
            )
            strategy = self.lexmin_strategy(grid.size)
            if mode is Mode.LEXMIN and strategy == "objective":
                stats.update(strategy="objective", workers=1)
                outcome = self._lexmin_by_objective(grid, shape, run, stats)
            elif mode is Mode.LEXMIN:
                stats.update(strategy="search", workers=1)
                outcome = self._lexmin_by_search(shape, run)
            elif mode is Mode.ANY:
                stats.update(strategy="portfolio", workers=self.workers)
                outcome = self._any(shape, run)
            else:
                stats.update(strategy="enumerate", workers=1)
                outcome = self._count(shape, run, limit, stats)
        outcome.stats = {
            **stats,
            "solve_seconds": run.solve_seconds,
            "stages": run.stages,
            "branches": run.branches,
            "conflicts": run.conflicts,
            **outcome.stats,
        }
        return outcome

    # -- lexmin ---------------------------------------------------------------------------------

    def _lexmin_by_objective(
        self, grid: Grid, shape: KeptModel, run: _Run, stats: dict[str, Any]
    ) -> Outcome:
        """The only completion if the probe finds one; else minimise chunk after chunk of blank
        cells, freezing each at its proven optimum."""
        from ortools.sat.python import cp_model

        configure_fixed_search(run.solver.parameters)
        candidates = shape.candidates(grid.values)
        probed = may_be_unique(grid) and self._stages_at_least(
            grid.blanks(), shape, candidates, PROBE_FROM_STAGES
        )
        stats["probe"] = "skipped"  # several completions for sure, or too few stages to save
        if probed:
            try:
                outcome = self._probe_uniqueness(shape, run)
            except _TimedOut:
                outcome = self._timeout("in the uniqueness probe")
            stats["probe"] = PROBE_VERDICTS[None if outcome is None else outcome.status]
            if outcome is not None:
                return outcome
        known = list(grid.values)  # the givens and the frozen chunks
        values: Sequence[int] = known
        left = grid.blanks()
        number = 0
        while left:
            number += 1
            if number > 1:
                candidates = shape.candidates(known)
            chunk = shape.next_chunk(left, candidates)
            left = left[len(chunk) :]
            shape.minimize_chunk(chunk, candidates)
            clock = _first_solution_clock_class()() if number == 1 else None
            stage_start = time.perf_counter()
            try:
                status = run.solve(shape.model, clock)
            except _TimedOut:
                return self._timeout(f"in stage {number}, {len(left)} blank cells after it")
            if clock is not None and clock.at is not None:
                # The fixed search meets the lex-min first; everything after it is proof.
                stats["first_solution_seconds"] = clock.at - stage_start
            logger.debug(
                "lex-min stage %d (%d cells, %d left): %s after %.3f s",
                number,
                len(chunk),
                len(left),
                run.solver.status_name(status),
                time.perf_counter() - stage_start,
            )
            if status == cp_model.OPTIMAL:
                values = shape.values_from(run.solver.response_proto.solution)
                shape.freeze(chunk, values)
                for cell in chunk:
                    known[cell] = values[cell]
            elif status == cp_model.INFEASIBLE and number == 1 and not probed:
                return Outcome(Status.UNSATISFIABLE, reason="CP-SAT proved there is no completion")
            elif status in (cp_model.FEASIBLE, cp_model.UNKNOWN) and run.ran_out_of_time():
                return self._timeout(f"in stage {number}, {len(left)} blank cells after it")
            else:
                raise run.failure(status, f"in lex-min stage {number}")
        if "first_solution_seconds" in stats:
            stats["proof_seconds"] = run.solve_seconds - stats["first_solution_seconds"]
        return Outcome(Status.SOLVED, values=tuple(values))

    @staticmethod
    def _stages_at_least(
        blanks: list[int], shape: KeptModel, candidates: Sequence[int], stages: int
    ) -> bool:
        """Whether the staged objective would take at least this many stages, counting chunks
        by the candidates the givens leave (freezing a chunk can only shorten what follows)."""
        left = blanks
        for _ in range(stages - 1):
            left = left[len(shape.next_chunk(left, candidates)) :]
            if not left:
                return False
        return True

    def _probe_uniqueness(self, shape: KeptModel, run: _Run) -> Outcome | None:
        """Enumerate completions up to two: the answer when there is at most one, else None.

        An exhausted enumeration that met one completion proves it is the only one, so it is the
        lex-min; on 17clue and serg_benchmark this one call replaces 3-4 objective stages.

        Raises:
            _TimedOut: when no time is left before the call.
        """
        from ortools.sat.python import cp_model

        parameters = run.solver.parameters
        tally = SolutionTally(2)
        parameters.enumerate_all_solutions = True
        try:
            status = run.solve(shape.model, _tallying_callback_class()(tally, shape))
        finally:
            parameters.enumerate_all_solutions = False
        if tally.reached():
            return None
        if status == cp_model.OPTIMAL and tally.first is not None:
            return Outcome(Status.SOLVED, values=tuple(tally.first))
        if status in (cp_model.INFEASIBLE, cp_model.OPTIMAL):
            return Outcome(Status.UNSATISFIABLE, reason="CP-SAT proved there is no completion")
        if status in (cp_model.FEASIBLE, cp_model.UNKNOWN) and run.ran_out_of_time():
            return self._timeout("in the uniqueness probe")
        raise run.failure(status, f"in the uniqueness probe after {tally.count} completions")

    def _lexmin_by_search(self, shape: KeptModel, run: _Run) -> Outcome:
        """The first solution of the row-major, smallest-value fixed search (no objective)."""
        configure_fixed_search(run.solver.parameters)
        return self._first_solution(shape, run)

    # -- any, count -----------------------------------------------------------------------------

    def _any(self, shape: KeptModel, run: _Run) -> Outcome:
        """Whatever completion CP-SAT finds first, with its default search."""
        configure_free_search(run.solver.parameters)
        run.solver.parameters.num_workers = self.workers
        return self._first_solution(shape, run)

    def _first_solution(self, shape: KeptModel, run: _Run) -> Outcome:
        """Solve once and translate the status."""
        from ortools.sat.python import cp_model

        try:
            status = run.solve(shape.model)
        except _TimedOut:
            return self._timeout("before the search")
        if status in (cp_model.OPTIMAL, cp_model.FEASIBLE):
            return Outcome(
                Status.SOLVED, values=tuple(shape.values_from(run.solver.response_proto.solution))
            )
        if status == cp_model.INFEASIBLE:
            return Outcome(Status.UNSATISFIABLE, reason="CP-SAT proved there is no completion")
        if status == cp_model.UNKNOWN and run.ran_out_of_time():
            return self._timeout("during the search")
        raise run.failure(status, "for a single solve")

    def _count(self, shape: KeptModel, run: _Run, limit: int, stats: dict[str, Any]) -> Outcome:
        """Enumerate distinct completions until the limit, the end of the search or the budget."""
        from ortools.sat.python import cp_model

        configure_enumeration(run.solver.parameters)
        tally = SolutionTally(limit)
        try:
            status = run.solve(shape.model, _tallying_callback_class()(tally, shape))
        except _TimedOut:
            return self._timeout("before counting", count=0)
        stats.update(reported_solutions=tally.reported)
        first = None if tally.first is None else tuple(tally.first)
        if status not in (
            cp_model.OPTIMAL,
            cp_model.FEASIBLE,
            cp_model.INFEASIBLE,
            cp_model.UNKNOWN,
        ):
            raise run.failure(status, "while counting")  # MODEL_INVALID or a new status
        if tally.reached() or (status == cp_model.OPTIMAL and tally.count > 0):
            return Outcome(Status.SOLVED, values=first, count=tally.count)
        if status in (cp_model.INFEASIBLE, cp_model.OPTIMAL) and tally.count == 0:
            return Outcome(
                Status.UNSATISFIABLE, count=0, reason="CP-SAT proved there is no completion"
            )
        if run.ran_out_of_time():
            return self._timeout(f"after {tally.count} completions", count=tally.count)
        raise run.failure(status, f"after {tally.count} of at most {limit} completions")

    @staticmethod
    def _timeout(when: str, count: int | None = None) -> Outcome:
        return Outcome(Status.TIMEOUT, count=count, reason=f"time limit reached {when}")
