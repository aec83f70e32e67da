"""The kept models of the `cpsat` backend: one model per grid shape, a puzzle posed on it.

A `CpSatModel` writes its model (`model`) into a CP-SAT proto once per grid shape, and every
puzzle of that shape is solved on it: `posed` poses the puzzle's givens and, for lex-min, the
decision strategy of the fixed search; the staged objective adds an objective and freezes the
chunks it has settled; afterwards the model is as it was. Two kinds:

- `BooleanModel`: a given fixes the literal "cell holds value" true, as a CP-SAT assumption below
  `GIVENS_AS_DOMAINS_FROM_SIZE`, as a one-value domain from there on;
- `IntegerModel`: a given narrows its cell's domain to the value (assumptions need Boolean
  literals, which this model has none of).

    model = BooleanModel(9, (3, 3))
    with model.posed(grid, lexmin=True) as givens:
        ...  # solve model.proto (see `call.PuzzleCalls`)
        answer = model.values_from(solution)

A CP-SAT call that outlived its budget may still read the proto after the puzzle (`busy`);
the model is then left alone until `settle` has waited for the call and cleaned it.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from typing import Any, ClassVar

from ...errors import BackendFailure
from ...grid import Geometry, Grid, Shape, geometry
from .model import ProtoWriter, write_boolean_model, write_integer_model

# The Boolean model fixes the givens by narrowed domains from this size on, by assumptions below:
# CP-SAT keeps assumptions at a decision level, so every clause it learns carries the givens it
# rests on, which costs where the search meets many conflicts (docs/decisions.md).
GIVENS_AS_DOMAINS_FROM_SIZE = 16


class CpSatModel(ABC):
    """A model of one grid shape in a CP-SAT proto, reused puzzle after puzzle.

    Subclasses write the model and say how givens are posed and frozen, which variables the
    lex-min decision strategy lists, how a cell's digit reads in the staged objective, and how a
    solution vector reads as the grid's values.
    """

    kind: ClassVar[str] = ""
    # The decision strategy of the lex-min search: which unfixed variable, which value first.
    _selection: ClassVar[str] = "CHOOSE_FIRST"
    _reduction: ClassVar[str] = ""

    def __init__(self, size: int, box: Shape) -> None:
        from ortools.sat.python import cp_model_helper as cmh

        self.size = size
        self.proto: Any = cmh.CpModelProto()
        grid_geometry = geometry(size, box)
        self._write(ProtoWriter(self.proto), grid_geometry)
        self._units = grid_geometry.units
        unit_index = {unit: index for index, unit in enumerate(self._units)}
        self._units_of_cell = [
            tuple(unit_index[unit] for unit in units) for units in grid_geometry.units_of
        ]
        self.all_values = (1 << (size + 1)) - 2  # the candidate mask of bits 1..N
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

    def settle(self, timeout: float | None = None) -> bool:
        """Wait for an abandoned call on this model to end (at most `timeout` seconds), then
        clean the model; True if the model is free now."""
        call = self.busy
        if call is None:
            return True
        call.join(timeout)
        if call.is_alive():
            return False
        self.busy = None
        self._clear()
        return True

    def _clear(self) -> None:
        self._release()
        self.proto.clear_objective()
        self.proto.search_strategy.clear()

    def candidates(self, values: Sequence[int]) -> list[int]:
        """Per cell, the bit mask (bit v for value v) of the values no filled peer holds."""
        used = [0] * len(self._units)
        units_of_cell = self._units_of_cell
        for cell, value in enumerate(values):
            if value:
                bit = 1 << value
                for unit in units_of_cell[cell]:
                    used[unit] |= bit
        everything = self.all_values
        return [everything & ~(used[a] | used[b] | used[c]) for a, b, c in self._units_of_cell]

    @abstractmethod
    def _write(self, model: ProtoWriter, grid_geometry: Geometry) -> None:
        """Write the model of this grid shape into the (empty) proto."""

    @abstractmethod
    def _pose(self, grid: Grid) -> int:
        """Pose the puzzle's givens; return how many."""

    @abstractmethod
    def _release(self) -> None:
        """Take away the givens and frozen cells."""

    @abstractmethod
    def _strategy_variables(self, grid: Grid, candidates: Sequence[int] | None) -> list[int]:
        """The variables of the lex-min decision strategy, in decision order."""

    @abstractmethod
    def freeze(self, cells: Sequence[int], values: Sequence[int]) -> None:
        """Fix these cells to their values in `values` (for the current puzzle only)."""

    @abstractmethod
    def radix(self, mask: int) -> int:
        """How many values a cell with these candidates spans in a chunk's number (>= 1)."""

    @abstractmethod
    def digit_terms(self, cell: int, mask: int) -> list[tuple[int, int]]:
        """The cell's digit in a chunk's number as (variable, weight) terms, for a cell with
        these candidates."""

    def headroom(self) -> int:
        """What the product of a chunk's radices is multiplied by before the 2**53 test."""
        return 1

    @abstractmethod
    def values_from(self, solution: Sequence[int]) -> bytes:
        """The grid's values, row-major, one byte each, from a CP-SAT solution vector.

        Compact and exact, so it also serves as the key that tells completions apart.

        Raises:
            BackendFailure: when the vector does not hold one value per cell.
        """


class BooleanModel(CpSatModel):
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

    def _write(self, model: ProtoWriter, grid_geometry: Geometry) -> None:
        write_boolean_model(model, grid_geometry)

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
        """The candidate literals of the blank cells: row-major, values ascending (a flag byte
        per literal, then one `compress` instead of a loop over the values)."""
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

    def digit_terms(self, cell: int, mask: int) -> list[tuple[int, int]]:
        """The rank of the cell's value among its candidates: the Boolean of its k-th candidate
        weighs k. Values that are no candidate (a filled peer holds them) get no term: no
        completion of this puzzle gives them to the cell."""
        base = cell * self.size - 1
        return [(base + value, rank) for rank, value in enumerate(mask_values(mask)[1:], start=1)]

    def values_from(self, solution: Sequence[int]) -> bytes:
        values = bytes(itertools.compress(self._value_of_variable, solution_bits(solution)))
        if len(values) != self.size * self.size:
            raise BackendFailure(f"CP-SAT gave {len(values)} values for {self.size**2} cells")
        return values


class IntegerModel(CpSatModel):
    """The integer model: givens and frozen cells narrow their cell's domain to the value, in
    the kept proto, until the puzzle is done."""

    kind = "integer"
    _reduction = "SELECT_MIN_VALUE"

    def __init__(self, size: int, box: Shape, *, row_counts: bool = False) -> None:
        self.row_counts = row_counts  # with the implied row counts (variables after the cells)
        self._fixed: list[int] = []  # cells whose domain is narrowed now
        super().__init__(size, box)

    def _write(self, model: ProtoWriter, grid_geometry: Geometry) -> None:
        write_integer_model(model, grid_geometry, row_counts=self.row_counts)

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

    def headroom(self) -> int:
        # The objective is sum(place * value) over the chunk, its smallest candidates left in:
        # at most N times the sum of the places, which is below their product.
        return self.size

    def digit_terms(self, cell: int, mask: int) -> list[tuple[int, int]]:
        """The cell's integer itself, weight 1: its value less its smallest candidate, in the
        radix of its span of candidates (largest - smallest + 1). The objective, the sum of
        place * value, differs from that number by a constant and stays below N times the
        product of the radices (`headroom`)."""
        return [(cell, 1)] if self.radix(mask) > 1 else []

    def values_from(self, solution: Sequence[int]) -> bytes:
        cells = self.size * self.size
        if self.row_counts:  # the row counts' variables follow the cells: read the cells only
            if len(solution) < cells:
                raise BackendFailure(f"CP-SAT gave {len(solution)} values for {cells} cells")
            values = bytes(solution[index] for index in range(cells))
        else:
            text = str(solution)  # printed in C++: cheaper than reading the field from Python
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


@functools.lru_cache(maxsize=1 << 14)
def mask_values(mask: int) -> tuple[int, ...]:
    """The values whose bits are set in a candidate mask (bit v for value v), ascending."""
    values = []
    while mask:
        low = mask & -mask
        values.append(low.bit_length() - 1)
        mask ^= low
    return tuple(values)


_BITS = bytes.maketrans(b"01", b"\x00\x01")


def solution_bits(solution: Sequence[int]) -> Sequence[int]:
    """A 0/1 solution vector as bytes, read from its C++ text ("[0, 1, 0]") when that has the
    expected form, else element by element.

    Printing CP-SAT's repeated field is done in C++, far cheaper than iterating it from Python
    element by element (docs/decisions.md).
    """
    text = str(solution).encode()
    count = len(solution)
    if len(text) == 3 * count and text[:1] == b"[" and text[-1:] == b"]":
        bits = text[1::3].translate(_BITS)
        if len(bits) == count and not bits.translate(None, b"\x00\x01"):
            return bits
    return list(solution)
