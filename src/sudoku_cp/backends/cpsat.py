"""The `cpsat` backend: Sudoku as an OR-Tools CP-SAT model.

Two models, one chosen per grid size (option `model`, `auto` by default), each built once per grid
shape and kept by the backend (in `prepare`, before the puzzle's clock starts):

- **boolean**: a Boolean per (cell, value), every cell exactly one value, every unit every value
  exactly once (the extended encoding, whose unit propagation finds naked and hidden singles). A
  puzzle poses its givens as CP-SAT *assumptions* on that kept model (from
  GIVENS_AS_DOMAINS_FROM_SIZE on, by narrowing the given literals' domains to true, so that CP-SAT
  fixes them at the root) and takes them away again.
- **integer**: one integer 1..N per cell and an `AllDifferent` per unit. A puzzle poses its givens
  by narrowing the given cells' domains in the kept model's proto to their value, and puts the
  domains back afterwards (assumptions need Boolean literals, which this model does not have).

`auto` takes the integer model for lex-min from `INTEGER_FROM_SIZE` on, and the Boolean model
otherwise (the faster of the two for lex-min below that size and for `any` at every size
measured; docs/backends.md has the figures).

The models are written straight into CP-SAT's model proto through `cp_model_helper`, the C++
binding that `cp_model` itself wraps, and solved through its `SolveWrapper`: `cp_model` imports
pandas and numpy, which would make every process that runs this backend far bigger and slower to
start, and its helpers cost more Python per variable. The protos are the same as `cp_model`
would write (tested).

Lex-min, two strategies (option `strategy`):

- **search** (`auto`, every size): the first solution of a fixed search, under these parameters:
  a decision strategy, posed per puzzle, that lists the blank cells row-major (Boolean model: the
  literals of their candidates, value by value), first unfixed one first, smallest value first
  (`FIXED_SEARCH`, presolve off, symmetry detection off, one worker). One CP-SAT call.
- **objective**: in two steps, its answer resting on objective bounds rather than on the search
  order. (1) Uniqueness probe: when the givens could have one completion only (at least N - 1
  distinct values given: two absent values could otherwise be swapped) and the stages below
  would be three or more, enumerate completions up to two in one call; one completion and the
  search exhausted: it is the only one, so it is the lex-min. (2) Staged objective, for the rest:
  the blank cells, row-major, are cut into chunks; each stage minimises one chunk read as a
  mixed-radix number (Boolean model: a cell's digit is the rank of its value among the values no
  filled peer holds; integer model: its value less its smallest candidate; the first cell
  weighing most), then freezes the chunk at its optimum (more assumptions, or narrowed domains)
  and moves on. A chunk is as long as keeps every objective value exact (below 2**53), so every
  stage is exact. The stages run the same fixed search.

From COUNTS_FROM_SIZE up (box sides not both powers of two), for puzzles with at most N givens,
the lex-min integer model also carries implied row counts (`add_row_counts`), which let bounds
propagation see the pigeonholes of the big empty grids.

Why the first solution of that search is the lex-min. Under those parameters CP-SAT is one
CDCL search over the model as written (no presolve: no variable is replaced by a representative
or removed, no symmetry is broken) whose every decision is "the first not-yet-fixed cell, in
row-major order, takes its smallest value still in its domain". The strategy lists only the blank
cells and, on the Boolean model, only their candidates, ordered cell by cell and value by value;
the first unfixed literal set true is the same decision. What it leaves out is fixed before the
first decision: a given is an assumption or a one-value domain, and a value that a given peer
holds is false once the givens propagate (the unit's exactly-one holding the given).
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

The row counts (`add_row_counts`) keep this argument. Each variable they add is a function of the
cells (a literal "cell == v", a Boolean "v is among the row's first k cells"), and every
completion, with them so set, satisfies every constraint they add (a row holds each value once, so
its first k cells hold exactly k values): they remove no completion, S* extends to a solution of
the whole model, and the propagation they add is sound like the rest. The decision strategy still
lists the cells alone, and once every cell is fixed propagation fixes the added variables, so the
first solution is S*. They change how soon a wrong prefix is refuted, not which solution comes
first (tested: the same answers with and without them).

Time limits. One budget covers every call of a puzzle; each call gets what is left. CP-SAT checks
its limit only between steps, and some steps do not look at it: copying and validating the model,
and expanding each `AllDifferent` of the integer model into a Boolean encoding before the search
(seconds on a 49x49). So a call under a limit runs on a helper thread while the backend waits for
what is left of the budget (and `STOP_GRACE_SECONDS`); past it, the backend asks CP-SAT to stop,
reports TIMEOUT and leaves the call to end on its own. The kept model it reads is left as it is
until then: the next `prepare` (set-up, outside the next puzzle's clock) or `close` waits for the
call and cleans the model. Without a limit the call runs on the calling thread.

Pitfalls of ortools 9.15 guarded against here (docs/backends.md lists them with their tests):
with presolve on or more than one worker the fixed search's first solution is not the lex-min;
objective coefficients at or beyond 2**53 give wrong "optimal" answers or MODEL_INVALID; solution
hints between stages crash presolve (or-tools #5288, #5091), so none are given; enumerating with
several workers reports solutions twice, so counting uses one worker and de-duplicates anyway.

ortools is imported only inside functions: choosing another backend never pays for loading it.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import logging
import threading
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from ..errors import BackendFailure
from ..grid import BLANK, Geometry, Grid, Shape, geometry
from ..result import Mode, Status
from .base import Backend, BackendOption, Deadline, Outcome

logger = logging.getLogger(__name__)

STRATEGIES = ("auto", "objective", "search")
MODELS = ("auto", "boolean", "integer")
COUNTS = ("auto", "on", "off")  # the row counts of the lex-min integer model (add_row_counts)
# `auto` choices, by grid size N (measured: see the comments below and docs/backends.md).
INTEGER_FROM_SIZE = 26  # the integer model for lex-min from here on, the Boolean one below
EXACT_INTEGER_LIMIT = 2**53  # every objective value must stay below this to be exact
DEFAULT_WORKERS = 1  # for `any`; on this 2-core machine one worker beat two (see CpSatBackend)
INT64_MIN, INT64_MAX = -(2**63), 2**63 - 1
# The Boolean model fixes the givens by narrowed domains from this size on, by assumptions below.
# CP-SAT keeps assumptions at a decision level, so every clause it learns carries the givens it
# rests on: on the unique 25x25 puzzles of data/generated, 2,800 literals a learnt clause and 4x
# the time of the same search with the givens fixed at the root. Where the search meets hardly
# a conflict (9x9) the assumptions are the cheaper to pose and load (docs/backends.md).
GIVENS_AS_DOMAINS_FROM_SIZE = 16
# How long past a call's budget the backend waits for CP-SAT to return by its own limit before it
# stops the call and reports TIMEOUT (see "Time limits" in the module docstring).
STOP_GRACE_SECONDS = 0.1
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


@functools.lru_cache(maxsize=1 << 14)
def mask_values(mask: int) -> tuple[int, ...]:
    """The values whose bits are set in a candidate mask (bit v for value v), ascending."""
    values = []
    while mask:
        low = mask & -mask
        values.append(low.bit_length() - 1)
        mask ^= low
    return tuple(values)


# -- writing the models -------------------------------------------------------------------------


class ProtoWriter:
    """Appends variables and constraints to a CP-SAT model proto through its own fields, as the
    `cp_model` helpers would write them (variable indices from 0; a negated literal is -i - 1)."""

    def __init__(self, proto: Any) -> None:
        from ortools.sat.python import cp_model_helper as cmh

        self.proto = proto
        self._cmh = cmh

    def new_variables(self, count: int, low: int, high: int) -> range:
        """`count` new variables with domain low..high; their indices."""
        start = len(self.proto.variables)
        variable = self._cmh.IntegerVariableProto()
        variable.domain.extend([low, high])
        self.proto.variables.extend([variable] * count)
        return range(start, start + count)

    def exactly_one(self, literals: Iterable[int]) -> None:
        self.proto.constraints.add().exactly_one.literals.extend(literals)

    def all_different(self, variables: Iterable[int]) -> None:
        expressions = self.proto.constraints.add().all_diff.exprs
        for variable in variables:
            expression = expressions.add()
            expression.vars.append(variable)
            expression.coeffs.append(1)

    def linear(
        self,
        variables: Sequence[int],
        coefficients: Sequence[int],
        domain: Sequence[int],
        enforcement: Sequence[int] = (),
    ) -> None:
        """sum(coefficient * variable) in `domain` (flat intervals), if every enforcement
        literal holds."""
        constraint = self.proto.constraints.add()
        if enforcement:
            constraint.enforcement_literal.extend(enforcement)
        linear = constraint.linear
        linear.vars.extend(variables)
        linear.coeffs.extend(coefficients)
        linear.domain.extend(domain)


# Boolean per (cell, value) or an integer per cell with AllDifferent: measured on this 2-core
# machine, ortools 9.15, one worker, presolve off. With the old parameters (root probing and
# inprocessing on), lexmin by the fixed search, build included:
#   empty 16x16: Boolean 0.34 s (56k branches) vs integer 0.59 s (104k branches);
#   empty 25x25: Boolean 4.8 s vs integer 8.9 s; 9x9 medians: top95 8.5 vs 8.6 ms,
#   serg 5.9 vs 7.6 ms; `any` medians (1 worker): top95 3.4 vs 4.0 ms.
# With today's lean parameters (`configure_lean`), fixed search, CPU seconds, build included:
#   empty 25x25: Boolean 0.31 s (2,761 branches) vs integer 0.18 s (1,557);
#   empty 36x36: Boolean 48.2 s (376k branches, 370k conflicts) vs integer 5.8 s (51k, 49k).
# So `auto` keeps the Boolean model up to 25x25 (faster there, and its per-candidate ranks give
# the staged objective its shortest stages) and takes the integer one from 26 up
# (INTEGER_FROM_SIZE). Our reading of the 36x36 branch counts:
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
# the same answers (the assumption figure without the backend's own overhead). A per-puzzle model
# written through the proto's fields took 0.4-0.5 ms to write, through the text format 0.6-0.9 ms
# to write and parse, against 0.1-0.2 ms saved in the solve (docs/backends.md).
def write_boolean_model(writer: ProtoWriter, shape: Geometry) -> None:
    """The Boolean model: variable ``cell * N + value - 1`` is "cell holds value"; exactly one
    value per cell, each value exactly once per unit."""
    size = shape.size
    literals = writer.new_variables(size**3, 0, 1)
    for cell in range(size * size):
        writer.exactly_one(literals[cell * size : (cell + 1) * size])
    for unit in shape.units:
        for offset in range(size):
            writer.exactly_one([cell * size + offset for cell in unit])


def write_integer_model(writer: ProtoWriter, shape: Geometry, counts: bool = False) -> None:
    """The integer model: variable ``cell`` is the cell's value, 1..N; an `AllDifferent` per
    unit; with `counts`, the row counts of `add_row_counts` (variables N*N and up)."""
    size = shape.size
    cells = writer.new_variables(size * size, 1, size)
    for unit in shape.units:
        writer.all_different(unit)
    if counts:
        add_row_counts(writer, cells, size, shape.box_shape)


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


def add_row_counts(writer: ProtoWriter, cells: Sequence[int], size: int, box: Shape) -> None:
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
    literals = writer.new_variables(size * size * size, 0, 1)
    for cell, variable in enumerate(cells):
        for value in range(1, size + 1):
            literal = literals[cell * size + value - 1]
            writer.linear([variable], [1], [value, value], [literal])
            writer.linear(
                [variable], [1], [INT64_MIN, value - 1, value + 1, INT64_MAX], [-literal - 1]
            )
    for row in range(size):
        row_cells = range(row * size, (row + 1) * size)
        for cut in range(width, size, width):
            first, rest = row_cells[:cut], row_cells[cut:]
            among = writer.new_variables(size, 0, 1)
            for value, inside in enumerate(among):
                in_first = [literals[cell * size + value] for cell in first]
                in_rest = [literals[cell * size + value] for cell in rest]
                writer.linear([*in_first, inside], [-1] * len(in_first) + [1], [0, 0])
                writer.linear([*in_rest, inside], [1] * (len(in_rest) + 1), [1, 1])
            writer.linear(among, [1] * size, [cut, cut])


class KeptModel:
    """A backend's own model of one grid shape, reused puzzle after puzzle.

    A puzzle poses its givens and, for lex-min, its decision strategy (`posed`), may add an
    objective and freeze cells (the chunks of the staged lex-min), and leaves the model as it
    found it. While a CP-SAT call that outlived its budget still reads the model (`busy`), the
    model is left alone; `settle` waits for that call and cleans the model. Subclasses say how
    givens are posed.
    """

    kind: ClassVar[str] = ""
    # The decision strategy of the lex-min search: which unfixed variable, which value first.
    _selection: ClassVar[str] = "CHOOSE_FIRST"
    _reduction: ClassVar[str] = ""

    def __init__(self, size: int, box: Shape) -> None:
        from ortools.sat.python import cp_model_helper as cmh

        self.size = size
        self.proto: Any = cmh.CpModelProto()
        shape_geometry = geometry(size, box)
        self._write(ProtoWriter(self.proto), shape_geometry)
        self._units = shape_geometry.units
        unit_index = {unit: index for index, unit in enumerate(self._units)}
        self._units_of_cell = [
            tuple(unit_index[unit] for unit in units) for units in shape_geometry.units_of
        ]
        self._all_values = (1 << (size + 1)) - 2  # bits 1..N
        strategies = cmh.DecisionStrategyProto
        self._selection_value = getattr(strategies, self._selection)
        self._reduction_value = getattr(strategies, self._reduction)
        self.busy: threading.Thread | None = None  # an abandoned CP-SAT call still reading it

    @contextlib.contextmanager
    def posed(
        self, grid: Grid, *, lexmin: bool = False, candidates: Sequence[int] | None = None
    ) -> Iterator[int]:
        """The model with this puzzle's givens posed, and for `lexmin` the lex-min decision
        strategy over its blank cells (`candidates`: per cell the values no given peer holds,
        `candidates(grid.values)` if None); yields the number of givens. Afterwards, even on an
        error, the model has no given, frozen cell, strategy or objective again, unless a call
        still reads it (then `settle` cleans it)."""
        self.settle()
        self._clear()
        try:
            givens = self._pose(grid)
            if lexmin:
                strategy = self.proto.search_strategy.add()
                strategy.variables.extend(self._strategy_variables(grid, candidates))
                strategy.variable_selection_strategy = self._selection_value
                strategy.domain_reduction_strategy = self._reduction_value
            yield givens
        finally:
            if self.busy is None:
                self._clear()

    def settle(self) -> bool:
        """Wait for an abandoned call on this model to end, then clean the model; True if there
        was one."""
        call = self.busy
        if call is None:
            return False
        call.join()
        self.busy = None
        self._clear()
        return True

    def _clear(self) -> None:
        self._release()
        self.proto.clear_objective()
        self.proto.search_strategy.clear()

    def _write(self, writer: ProtoWriter, shape: Geometry) -> None:
        """Write the model of this shape into the (empty) proto."""
        raise NotImplementedError

    def _pose(self, grid: Grid) -> int:
        raise NotImplementedError

    def _release(self) -> None:
        raise NotImplementedError

    def _strategy_variables(self, grid: Grid, candidates: Sequence[int] | None) -> list[int]:
        """The variables of the lex-min decision strategy, in decision order."""
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
        proto = self.proto
        proto.clear_objective()
        proto.objective.vars.extend(variables)
        proto.objective.coeffs.extend(coefficients)
        check_integer_objective(proto, len(variables))

    def values_from(self, solution: Sequence[int]) -> bytes:
        """The grid's values, row-major, one byte each, from a CP-SAT solution vector.

        Compact and exact, so it also serves as the key that tells completions apart.

        Raises:
            BackendFailure: when the vector does not hold one value per cell.
        """
        raise NotImplementedError


class ShapeModel(KeptModel):
    """The Boolean model: givens and frozen cells fix "cell holds value" true, as assumptions
    below GIVENS_AS_DOMAINS_FROM_SIZE and as one-value domains in the kept proto from there on
    (put back after the puzzle, like the integer model's)."""

    kind = "boolean"
    # Literal true first = the value first; the literals run row-major, values ascending.
    _reduction = "SELECT_MAX_VALUE"

    def __init__(self, size: int, box: Shape) -> None:
        super().__init__(size, box)
        self.by_domain = size >= GIVENS_AS_DOMAINS_FROM_SIZE
        self._fixed: list[int] = []  # literals whose domain is narrowed to true now
        # The value each variable stands for, by variable index: a solution vector then reads as
        # the grid's values with one `compress` (row-major, one true literal per cell).
        self._value_of_variable = [variable % size + 1 for variable in range(size**3)]
        self._variables = range(size**3)
        self._no_literal = bytes(size)  # a given cell's part of the strategy: none of its literals
        self._literal_flags: dict[int, bytes] = {}  # candidate mask -> one 0/1 byte per value

    def _write(self, writer: ProtoWriter, shape: Geometry) -> None:
        write_boolean_model(writer, shape)

    def literal(self, cell: int, value: int) -> int:
        """The variable index of the Boolean "cell holds value"."""
        return cell * self.size + value - 1

    def given_literals(self, grid: Grid) -> list[int]:
        """The literals that pose the puzzle's givens."""
        size = self.size
        return [cell * size + value - 1 for cell, value in enumerate(grid.values) if value]

    def _pose(self, grid: Grid) -> int:
        givens = self.given_literals(grid)
        self.assume(givens)
        return len(givens)

    def _release(self) -> None:
        self.proto.assumptions.clear()
        variables = self.proto.variables
        for literal in self._fixed:
            variables[literal].domain[0] = 0
        self._fixed.clear()

    def _strategy_variables(self, grid: Grid, candidates: Sequence[int] | None) -> list[int]:
        """The candidate literals of the blank cells: row-major, values ascending (one flag byte
        per literal, then `compress`: a third cheaper than a loop over the values)."""
        if candidates is None:
            candidates = self.candidates(grid.values)
        flags, none = self._literal_flags, self._no_literal
        if len(flags) > 1 << 12:  # masks seen so far; bounded, whatever the puzzles
            flags.clear()
        row = flags.get
        selected = b"".join(
            [
                none if value else (row(mask) or self._flags(mask))
                for mask, value in zip(candidates, grid.values, strict=True)
            ]
        )
        return list(itertools.compress(self._variables, selected))

    def _flags(self, mask: int) -> bytes:
        flags = bytes(mask >> value & 1 for value in range(1, self.size + 1))
        self._literal_flags[mask] = flags
        return flags

    def assume(self, literals: Sequence[int]) -> None:
        """Fix these literals true, as assumptions or narrowed domains (`by_domain`), for the
        current puzzle only: `posed` takes them away."""
        if not self.by_domain:
            self.proto.assumptions.extend(literals)
            return
        variables = self.proto.variables
        for literal in literals:
            variables[literal].domain[0] = 1
        self._fixed.extend(literals)

    def freeze(self, cells: Sequence[int], values: Sequence[int]) -> None:
        """Fix these cells to their values in `values` (never a hint)."""
        self.assume([self.literal(cell, values[cell]) for cell in cells])

    def radix(self, mask: int) -> int:
        return max(1, mask.bit_count())

    def _digit_terms(self, cell: int, mask: int) -> list[tuple[int, int]]:
        """The rank of the cell's value among its candidates: the Boolean of its k-th candidate
        weighs k. Its largest value, the product of the candidate counts less one, must stay
        below 2**53; with every value a candidate this is the base-N number of
        `chunk_length(N)` cells. Values that are no candidate (a filled peer holds them) get no
        term: no completion of this puzzle gives them to the cell."""
        base = cell * self.size - 1
        return [(base + value, rank) for rank, value in enumerate(mask_values(mask)[1:], start=1)]

    def values_from(self, solution: Sequence[int]) -> bytes:
        values = bytes(itertools.compress(self._value_of_variable, solution_bits(solution)))
        if len(values) != self.size * self.size:
            raise BackendFailure(f"CP-SAT gave {len(values)} values for {self.size**2} cells")
        return values


class IntegerShapeModel(KeptModel):
    """The integer model: givens and frozen cells narrow their cell's domain to the value, in
    the kept proto, until the puzzle is done."""

    kind = "integer"
    _reduction = "SELECT_MIN_VALUE"

    def __init__(self, size: int, box: Shape, *, counts: bool = False) -> None:
        self.counts = counts  # with the row counts of `add_row_counts` (after the cells)
        self._fixed: list[int] = []  # cells whose domain is narrowed now
        super().__init__(size, box)

    def _write(self, writer: ProtoWriter, shape: Geometry) -> None:
        write_integer_model(writer, shape, self.counts)

    def _fix(self, cell: int, value: int) -> None:
        domain = self.proto.variables[cell].domain
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
        variables, size = self.proto.variables, self.size
        for cell in self._fixed:
            domain = variables[cell].domain
            domain[0] = 1
            domain[1] = size
        self._fixed.clear()

    def _strategy_variables(self, grid: Grid, candidates: Sequence[int] | None) -> list[int]:
        """The blank cells, row-major."""
        return grid.blanks()

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


def check_integer_objective(proto: Any, terms: int) -> None:
    """Make sure the model proto holds the objective as `terms` exact integer terms.

    (The `cp_model` layer silently turns an objective with a coefficient beyond int64, or a
    float, into a floating-point objective, whose "optimum" is not exact; this backend writes the
    proto itself, and checks anyway.)

    Raises:
        BackendFailure: when the objective is floating point or lost terms.
    """
    if proto.has_floating_point_objective():
        raise BackendFailure("CP-SAT turned the lex-min objective into a floating-point one")
    coefficients = list(proto.objective.coeffs)
    if len(coefficients) != terms or any(abs(c) >= EXACT_INTEGER_LIMIT for c in coefficients):
        raise BackendFailure(
            f"the lex-min objective should have {terms} exact integer terms, "
            f"CP-SAT holds {len(coefficients)}"
        )


# -- solver parameters --------------------------------------------------------------------------


def new_parameters() -> Any:
    """Fresh CP-SAT parameters for one puzzle; CP-SAT's own Ctrl-C handler off.

    (CP-SAT's SIGINT handler kills the process on Ctrl-C after a first solve; Ctrl-C is left to
    Python so solve and crosscheck can stop cleanly and report what was done.)
    """
    from ortools.sat.python import cp_model_helper as cmh

    parameters = cmh.SatParameters()
    parameters.catch_sigint_signal = False
    return parameters


def configure_lean(parameters: Any) -> None:
    """Skip the root-level work that costs more than it saves on Sudoku.

    Probing every Boolean at the root and SAT inprocessing (vivification) turned a 9x9 that needs
    7 branches into 1,100-1,400 branches of preprocessing; the LP relaxation of the exactly-ones
    is never read by a fixed search. Solve medians, first 300 of serg_benchmark, fixed search:
    7.9 ms with all three, 0.50 ms without (17clue: 1.49 vs 0.85 ms); empty 25x25 search-only
    0.60 vs 0.16 s, empty 16x16 0.15 vs 0.012 s. The detection of "greater than at least one of"
    relations, for scheduling models, finds none here and cost a tenth of a 9x9 call. These only
    drop deductions made before the search, so the fixed search's order (and with it the
    lex-min) is untouched.
    """
    parameters.cp_model_probing_level = 0
    parameters.use_sat_inprocessing = False
    parameters.linearization_level = 0
    parameters.auto_detect_greater_than_at_least_one_of = False


def configure_fixed_search(parameters: Any) -> None:
    """Make CP-SAT follow the model's decision strategy and nothing else.

    Presolve rewrites cells into functions of representatives (and breaks symmetries), and other
    workers report their own solutions: either way the first solution is no longer the lex-min.
    """
    from ortools.sat.python import cp_model_helper as cmh

    parameters.search_branching = cmh.SatParameters.SearchBranching.FIXED_SEARCH
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

    Without a limit the field is cleared: CP-SAT keeps its own default (no limit), never a huge
    number, even on parameters that an earlier puzzle gave a limit.
    """
    remaining = deadline.remaining()
    if remaining is None:
        parameters.clear_max_time_in_seconds()
    else:
        parameters.max_time_in_seconds = remaining
    return remaining


def call_cp_sat(wrapper: Any, proto: Any, parameters: Any) -> Any:
    """The one place CP-SAT solves: `proto` under `parameters`, through a `SolveWrapper` (which
    holds any solution callback); returns CP-SAT's response."""
    wrapper.set_parameters(parameters)
    return wrapper.solve(proto)


def status_name(status: Any) -> str:
    """CP-SAT's name of a response status ("OPTIMAL", "MODEL_INVALID", ...).

    Read by the status's number: the enum's own `name` costs 13 us, more than the rest of a 9x9's
    bookkeeping after the call.
    """
    try:
        return _status_names()[int(status)]
    except (KeyError, TypeError, ValueError):
        return str(getattr(status, "name", status))


@functools.cache
def _status_names() -> dict[int, str]:
    from ortools.sat.python import cp_model_helper as cmh

    return {int(value): name for name, value in cmh.CpSolverStatus.__members__.items()}


@functools.cache
def warm_up() -> None:
    """Solve a one-Boolean model once per process: CP-SAT's first call pays ~6 ms of one-off set-up
    that belongs to no puzzle."""
    from ortools.sat.python import cp_model_helper as cmh

    proto = cmh.CpModelProto()
    ProtoWriter(proto).new_variables(1, 0, 1)
    parameters = new_parameters()
    parameters.num_workers = 1
    call_cp_sat(cmh.SolveWrapper(), proto, parameters)


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
    from ortools.sat.python import cp_model_helper as cmh

    class TallyingCallback(cmh.SolutionCallback):
        """Feeds each reported solution to a tally and stops the search at its limit."""

        def __init__(self, tally: SolutionTally, shape: KeptModel) -> None:
            super().__init__()
            self.tally = tally
            self.shape = shape

        def OnSolutionCallback(self) -> None:  # noqa: N802 - the name CP-SAT calls
            if self.tally.reached():
                return  # a solution reported after StopSearch: not counted
            response: Any = self.Response()  # type: ignore[no-untyped-call]
            if self.tally.record(self.shape.values_from(response.solution)):
                self.StopSearch()

    return TallyingCallback


@functools.cache
def _first_solution_clock_class() -> type:
    """A callback that notes when the first solution arrives (where the lex-min time goes)."""
    from ortools.sat.python import cp_model_helper as cmh

    class FirstSolutionClock(cmh.SolutionCallback):
        def __init__(self) -> None:
            super().__init__()
            self.at: float | None = None

        def OnSolutionCallback(self) -> None:  # noqa: N802 - the name CP-SAT calls
            if self.at is None:
                self.at = time.perf_counter()

    return FirstSolutionClock


# -- the backend --------------------------------------------------------------------------------


class _TimedOut(Exception):
    """Raised inside a solve when the budget ran out; turned into TIMEOUT."""


class _Abandoned(_TimedOut):
    """A CP-SAT call outlived its budget (in a step it does not interrupt) and was told to stop;
    it still runs, and its model stays busy until it ends."""


@dataclass
class _Run:
    """One puzzle's solver calls: the parameters, the budget and the counters for the stats."""

    parameters: Any
    deadline: Deadline
    stages: int = 0
    branches: int = 0
    conflicts: int = 0
    solve_seconds: float = 0.0
    last_budget: float | None = None
    response: Any = None

    def solve(self, shape: KeptModel, callback: Any = None) -> Any:
        """One CP-SAT call on the kept model within what is left of the budget; returns its
        status (`response` holds the rest).

        Raises:
            _TimedOut: when no time is left before the call.
            _Abandoned: when the call outlived the budget (see "Time limits", module docstring).
        """
        from ortools.sat.python import cp_model_helper as cmh

        budget = set_time_budget(self.parameters, self.deadline)
        if budget is not None and budget <= 0.0:
            raise _TimedOut
        wrapper = cmh.SolveWrapper()
        if callback is not None:
            wrapper.add_solution_callback(callback)
        self.last_budget = budget
        start = time.perf_counter()
        try:
            if budget is None:
                response = call_cp_sat(wrapper, shape.proto, self.parameters)
            else:
                response = self._watched(wrapper, shape, budget)
        finally:
            self.solve_seconds += time.perf_counter() - start
            self.stages += 1
        if callback is not None:
            wrapper.clear_solution_callback(callback)
        self.response = response
        self.branches += response.num_branches
        self.conflicts += response.num_conflicts
        return response.status

    def _watched(self, wrapper: Any, shape: KeptModel, budget: float) -> Any:
        """The call on a helper thread, waited for at most the budget and the grace; past them
        CP-SAT is asked to stop and the model is marked busy until the call ends."""
        from ortools.sat.python import cp_model_helper as cmh

        answer: list[Any] = []
        done = threading.Event()
        # The backend reuses its parameters; the call reads its own copy, whatever follows.
        proto, parameters = shape.proto, cmh.SatParameters()
        parameters.copy_from(self.parameters)

        def call() -> None:
            try:
                answer.append(call_cp_sat(wrapper, proto, parameters))
            except BaseException as error:  # handed to the waiting thread
                answer.append(error)
            finally:
                done.set()

        thread = threading.Thread(target=call, name="cp-sat call", daemon=True)
        thread.start()
        finished = False
        try:
            finished = done.wait(budget + STOP_GRACE_SECONDS)
        finally:  # also on Ctrl-C while waiting: CP-SAT is told to stop, the model kept busy
            if not finished:
                wrapper.stop_search()
                shape.busy = thread
        if not finished:
            raise _Abandoned
        if isinstance(answer[0], BaseException):
            raise answer[0]
        return answer[0]

    def ran_out_of_time(self) -> bool:
        """Whether the last call stopped short because of the time budget.

        Time is the only limit we give CP-SAT, so a call under a budget that stops unfinished
        ran out of it. The wall clock is not a reliable witness: CP-SAT also stops before its
        limit when too little of it is left after loading the model.
        """
        return self.last_budget is not None

    def solution(self) -> Any:
        """The last call's solution vector."""
        return self.response.solution

    def failure(self, status: Any, what: str) -> BackendFailure:
        """The error for a status that should not happen here."""
        return BackendFailure(f"CP-SAT returned {status_name(status)} {what}")


class CpSatBackend(Backend):
    """OR-Tools CP-SAT, every size and mode: lex-min by the fixed row-major search, on the
    Boolean model up to 25x25 and on the integer model from 26x26, or by a staged exact objective
    (options `strategy` and `model`, both `auto` by default; see the module docstring).

    `workers` is the number of CP-SAT workers for `any` (lex-min and counting always use one:
    see the module docstring). Default 1, measured on this 2-core machine with the earlier
    model built per puzzle: `any` medians with 1 / 2 workers (two runs each, other jobs
    running): top95 4.1-5.0 / 5.1-5.4 ms, serg_benchmark[:200] 6.8-7.0 / 7.7-8.7 ms, empty 25x25
    1.7-2.2 / 2.1-2.2 s; only the empty 16x16 gained from two (0.33-0.51 / 0.27-0.36 s).
    Earlier, quieter: 4 workers were slower still.

    The backend keeps, per grid shape, one model of each kind that `model` picks for that size
    in some mode (and, for puzzles that want them, the lex-min integer model with the row
    counts); `prepare` makes them, and imports OR-Tools, outside the clock.
    """

    name = "cpsat"
    description = (
        "OR-Tools CP-SAT model; lex-min by a fixed row-major search (Booleans, "
        "from 26x26 integers) or a staged exact objective"
    )
    requires = ("ortools",)
    packages: ClassVar[tuple[str, ...]] = ("ortools",)
    setup_modules: ClassVar[tuple[str, ...]] = ("ortools.sat.python.cp_model_helper",)
    options: ClassVar[tuple[BackendOption, ...]] = (
        BackendOption(
            "lexmin",
            "search: the first solution of the fixed row-major search; objective: a "
            "staged exact objective; auto: search",
            "auto",
            choices=STRATEGIES,
            flag="--cpsat-lexmin",
            renamed_from=("strategy", "cpsat_strategy"),
            old_flags=("--cpsat-strategy",),
        ),
        BackendOption(
            "model",
            "boolean: a Boolean per cell and value, exactly-ones; integer: an "
            "integer per cell, AllDifferent per unit (empty 36x36 lexmin 6-8x faster, "
            "any slower); auto: integer for lexmin from "
            f"{INTEGER_FROM_SIZE}x{INTEGER_FROM_SIZE}, else boolean",
            "auto",
            choices=MODELS,
            renamed_from=("cpsat_model",),
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
            renamed_from=("cpsat_counts",),
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.workers: int = self.option_values["workers"]
        self.strategy: str = self.option_values["lexmin"]
        self.model_choice: str = self.option_values["model"]
        self.counts: str = self.option_values["counts"]
        # (size, box, kind) -> the kept model of that kind
        self._shapes: dict[tuple[int, Shape, str], KeptModel] = {}
        # (size, box) -> the lex-min integer model with the row counts, made for the puzzles
        # that want it (`uses_counts`)
        self._counted: dict[tuple[int, Shape], IntegerShapeModel] = {}
        # the kept models that a CP-SAT call past its budget may still read (`KeptModel.busy`)
        self._busy: list[KeptModel] = []
        # the shapes whose every model is made, whatever the puzzle (`prepare` has nothing to do)
        self._ready: set[tuple[int, Shape]] = set()
        # purpose -> CP-SAT parameters (`_parameters`)
        self._parameter_sets: dict[str, Any] = {}

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
        """The lex-min strategy this backend uses for grids of this size (`auto`: the search,
        at every size)."""
        return "search" if self.strategy == "auto" else self.strategy

    def prepare(self, grid: Grid) -> bool:
        """Import OR-Tools, warm CP-SAT up and make this shape's models, once per shape (the
        models of every mode: `prepare` does not know the mode, and it runs outside the clock);
        first wait for any CP-SAT call that outlived its budget and clean its model."""
        made = self._settle() if self._busy else False
        size, box = grid.size, grid.box
        if (size, box) in self._ready:
            return made
        for mode in Mode:
            kind = self.model_kind(size, mode)
            key = (size, box, kind)
            if key in self._shapes:
                continue
            warm_up()
            self._shapes[key] = (
                IntegerShapeModel(size, box) if kind == "integer" else ShapeModel(size, box)
            )
            made = True
        if self.model_kind(size) != "integer":
            self._ready.add((size, box))  # every model of the shape is made
        # The lex-min integer model with the row counts, when this puzzle wants it (prepare does
        # not know the mode either: a puzzle that wants it in `any` mode makes it too).
        elif (size, box) not in self._counted and self.uses_counts(grid):
            warm_up()
            self._counted[size, box] = IntegerShapeModel(size, box, counts=True)
            made = True
        return made

    def _settle(self) -> bool:
        """Wait for the calls that outlived their budgets; True if there were any."""
        settled = False
        while self._busy:
            settled = self._busy.pop().settle() or settled
        return settled

    def close(self) -> None:
        """Wait for any call still running, then drop the kept models."""
        self._settle()
        self._shapes.clear()
        self._counted.clear()
        self._ready.clear()

    def _parameters(self, purpose: str) -> Any:
        """This backend's CP-SAT parameters for "search", "objective", "any" or "count",
        configured once and reused puzzle after puzzle (each call sets its own time budget):
        configuring them anew cost as much as a tenth of a 9x9's bookkeeping."""
        parameters = self._parameter_sets.get(purpose)
        if parameters is None:
            parameters = new_parameters()
            if purpose == "any":
                configure_free_search(parameters)
                parameters.num_workers = self.workers
            elif purpose == "count":
                configure_enumeration(parameters)
            else:  # lex-min: the search, or the stages and the probe of the objective
                configure_fixed_search(parameters)
            self._parameter_sets[purpose] = parameters
        return parameters

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        self.prepare(grid)  # a no-op after Backend.solve; here for direct callers
        kind = self.model_kind(grid.size, mode)
        shape = self._shapes[grid.size, grid.box, kind]
        if mode is Mode.LEXMIN and kind == "integer" and self.uses_counts(grid):
            shape = self._counted[grid.size, grid.box]
        lexmin = mode is Mode.LEXMIN
        strategy = self.lexmin_strategy(grid.size)
        run = _Run(self._parameters(strategy if lexmin else mode.value), deadline)
        proto = shape.proto
        stats: dict[str, Any] = {
            "model": kind,
            "ortools": ortools_version(),
            "variables": len(proto.variables),
            "constraints": len(proto.constraints),
            "row_counts": isinstance(shape, IntegerShapeModel) and shape.counts,
        }
        start = time.perf_counter()
        # The staged objective needs the candidates; the Boolean strategy finds its own.
        candidates = shape.candidates(grid.values) if lexmin and strategy == "objective" else None
        try:
            with shape.posed(grid, lexmin=lexmin, candidates=candidates) as givens:
                # Narrowed domains (the integer model; the Boolean one from 16x16) are no
                # assumptions.
                stats.update(
                    givens=givens,
                    assumptions=len(proto.assumptions),
                    build_seconds=time.perf_counter() - start,
                )
                if lexmin and strategy == "objective":
                    stats.update(strategy="objective", workers=1)
                    assert candidates is not None
                    outcome = self._lexmin_by_objective(grid, shape, run, stats, candidates)
                elif lexmin:
                    stats.update(strategy="search", workers=1)
                    outcome = self._lexmin_by_search(shape, run)
                elif mode is Mode.ANY:
                    stats.update(strategy="portfolio", workers=self.workers)
                    outcome = self._any(shape, run)
                else:
                    stats.update(strategy="enumerate", workers=1)
                    outcome = self._count(shape, run, limit, stats)
        finally:
            if shape.busy is not None:
                self._busy.append(shape)  # cleaned by the next prepare, outside the clock
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
        self,
        grid: Grid,
        shape: KeptModel,
        run: _Run,
        stats: dict[str, Any],
        candidates: Sequence[int],
    ) -> Outcome:
        """The only completion if the probe finds one; else minimise chunk after chunk of blank
        cells, freezing each at its proven optimum."""
        probed = may_be_unique(grid) and self._stages_at_least(
            grid.blanks(), shape, candidates, PROBE_FROM_STAGES
        )
        stats["probe"] = "skipped"  # several completions for sure, or too few stages to save
        if probed:
            try:
                outcome = self._probe_uniqueness(shape, run)
            except _TimedOut as stop:
                outcome = self._timeout("in the uniqueness probe", stop)
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
                status = run.solve(shape, clock)
            except _TimedOut as stop:
                return self._timeout(f"in stage {number}, {len(left)} blank cells after it", stop)
            if clock is not None and clock.at is not None:
                # The fixed search meets the lex-min first; everything after it is proof.
                stats["first_solution_seconds"] = clock.at - stage_start
            logger.debug(
                "lex-min stage %d (%d cells, %d left): %s after %.3f s",
                number,
                len(chunk),
                len(left),
                status_name(status),
                time.perf_counter() - stage_start,
            )
            name = status_name(status)
            if name == "OPTIMAL":
                values = shape.values_from(run.solution())
                shape.freeze(chunk, values)
                for cell in chunk:
                    known[cell] = values[cell]
            elif name == "INFEASIBLE" and number == 1 and not probed:
                return Outcome(Status.UNSATISFIABLE, reason="CP-SAT proved there is no completion")
            elif name in ("FEASIBLE", "UNKNOWN") and run.ran_out_of_time():
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
            _TimedOut: when no time is left before the call, or the call outlived it.
        """
        parameters = run.parameters
        tally = SolutionTally(2)
        parameters.enumerate_all_solutions = True
        try:
            status = run.solve(shape, _tallying_callback_class()(tally, shape))
        finally:
            parameters.enumerate_all_solutions = False
        name = status_name(status)
        if tally.reached():
            return None
        if name == "OPTIMAL" and tally.first is not None:
            return Outcome(Status.SOLVED, values=tuple(tally.first))
        if name in ("INFEASIBLE", "OPTIMAL"):
            return Outcome(Status.UNSATISFIABLE, reason="CP-SAT proved there is no completion")
        if name in ("FEASIBLE", "UNKNOWN") and run.ran_out_of_time():
            return self._timeout("in the uniqueness probe")
        raise run.failure(status, f"in the uniqueness probe after {tally.count} completions")

    def _lexmin_by_search(self, shape: KeptModel, run: _Run) -> Outcome:
        """The first solution of the row-major, smallest-value fixed search (no objective)."""
        return self._first_solution(shape, run)

    # -- any, count -----------------------------------------------------------------------------

    def _any(self, shape: KeptModel, run: _Run) -> Outcome:
        """Whatever completion CP-SAT finds first, with its default search."""
        return self._first_solution(shape, run)

    def _first_solution(self, shape: KeptModel, run: _Run) -> Outcome:
        """Solve once and translate the status."""
        try:
            status = run.solve(shape)
        except _TimedOut as stop:
            return self._timeout("before the search", stop)
        name = status_name(status)
        if name in ("OPTIMAL", "FEASIBLE"):
            return Outcome(Status.SOLVED, values=tuple(shape.values_from(run.solution())))
        if name == "INFEASIBLE":
            return Outcome(Status.UNSATISFIABLE, reason="CP-SAT proved there is no completion")
        if name == "UNKNOWN" and run.ran_out_of_time():
            return self._timeout("during the search")
        raise run.failure(status, "for a single solve")

    def _count(self, shape: KeptModel, run: _Run, limit: int, stats: dict[str, Any]) -> Outcome:
        """Enumerate distinct completions until the limit, the end of the search or the budget."""
        tally = SolutionTally(limit)
        try:
            status = run.solve(shape, _tallying_callback_class()(tally, shape))
        except _TimedOut as stop:
            stats.update(reported_solutions=tally.reported)
            return self._timeout(f"after {tally.count} completions", stop, count=tally.count)
        stats.update(reported_solutions=tally.reported)
        first = None if tally.first is None else tuple(tally.first)
        name = status_name(status)
        if name not in ("OPTIMAL", "FEASIBLE", "INFEASIBLE", "UNKNOWN"):
            raise run.failure(status, "while counting")  # MODEL_INVALID or a new status
        if tally.reached() or (name == "OPTIMAL" and tally.count > 0):
            return Outcome(Status.SOLVED, values=first, count=tally.count)
        if name in ("INFEASIBLE", "OPTIMAL") and tally.count == 0:
            return Outcome(
                Status.UNSATISFIABLE, count=0, reason="CP-SAT proved there is no completion"
            )
        if run.ran_out_of_time():
            return self._timeout(f"after {tally.count} completions", count=tally.count)
        raise run.failure(status, f"after {tally.count} of at most {limit} completions")

    @staticmethod
    def _timeout(when: str, stop: _TimedOut | None = None, count: int | None = None) -> Outcome:
        """TIMEOUT, saying when; a call that outlived its budget says so instead of `when`."""
        if isinstance(stop, _Abandoned):
            when = (
                f"{when.removeprefix('before the search').strip()} in a CP-SAT call that was "
                "in a step it does not interrupt (told to stop)"
            ).strip()
        return Outcome(Status.TIMEOUT, count=count, reason=f"time limit reached {when}")
