"""The CNF of a Sudoku shape: what the `sat` backend's solvers hold and `sudoku-cp encode` writes.

Variables are numbered by formula: x(cell, value) = cell * N + value (cell row-major, 0-based;
value 1..N), so x runs over 1..N^3 and the auxiliary variables of an at-most-one encoding start at
N^3 + 1. Two encodings (Lynce & Ouaknine, "Sudoku as a SAT problem"):

    minimal   every cell holds at least one value; no unit holds a value twice.
    extended  minimal, plus: every cell holds at most one value; every unit holds every value.

The at-most-one constraints are clauses from `pysat.card` (pairwise, sequential counter, ladder,
...), or `native`: cardinality constraints of the solver itself (minicard, gluecard), no clauses
at all, which is what keeps a 64x64 grid's solver small (pairwise takes ~N^4 clauses). The
givens are not part of a shape's CNF (`base_cnf`): the backend passes them as assumptions and
`write_dimacs` as unit clauses. `row_count_cnf` adds implied row counts for the search by
propagation. Both are built once per process and shape.

    cnf = base_cnf(9, (3, 3), "extended", "pairwise")   # cnf.clauses, cnf.variables
    write_dimacs(grid, sys.stdout)                       # the puzzle in DIMACS
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TextIO

from ...errors import BackendOptionError
from ...grid import BLANK, Geometry, Grid, Shape, geometry

ENCODINGS = ("extended", "minimal")

# The at-most-one encodings that are clauses (what DIMACS holds): pairwise and those of pysat.card.
CLAUSE_AMO_ENCODINGS = (
    "pairwise",
    "seqcounter",
    "ladder",
    "bitwise",
    "totalizer",
    "mtotalizer",
    "kmtotalizer",
    "sortnetwrk",
    "cardnetwrk",
)
# "native": the solver's own cardinality constraints (CARDINALITY_SOLVERS), no clauses at all.
NATIVE_AMO = "native"
AMO_ENCODINGS = (*CLAUSE_AMO_ENCODINGS, NATIVE_AMO)

DEFAULT_ENCODING = "extended"
DEFAULT_AMO = "pairwise"  # what `sudoku-cp encode` writes; the backend's `auto` picks per size


def variable(cell: int, value: int, size: int) -> int:
    """The Boolean x(cell, value): 'cell holds value', numbered cell * N + value."""
    return cell * size + value


def decode_model(model: Sequence[int], size: int) -> list[int]:
    """The N*N cell values of a model (a list of signed literals indexed by variable - 1)."""
    values = [BLANK] * (size * size)
    for literal in model[: size**3]:
        if literal > 0:
            cell, value = divmod(literal - 1, size)
            values[cell] = value + 1
    return values


@dataclass(frozen=True)
class BaseCnf:
    """The clauses every puzzle of one shape shares; the givens are not part of it."""

    size: int
    box: Shape
    encoding: str
    amo: str
    clauses: tuple[tuple[int, ...], ...]
    variables: int  # the highest variable: N^3, or above with auxiliary variables
    # amo=native: (literals, k), "at most k of them true", for the solver's own constraints
    cardinalities: tuple[tuple[tuple[int, ...], int], ...] = ()

    @property
    def first_auxiliary(self) -> int | None:
        """The first auxiliary variable of the at-most-one encoding, None when there is none."""
        return self.size**3 + 1 if self.variables > self.size**3 else None


def check_encoding(encoding: str, amo: str) -> None:
    """Refuse unknown encoding or at-most-one names, listing the accepted ones.

    Raises:
        BackendOptionError: for a name that is not accepted.
    """
    if encoding not in ENCODINGS:
        raise BackendOptionError(
            f"unknown SAT encoding {encoding!r} (choose from {', '.join(ENCODINGS)})"
        )
    if amo not in AMO_ENCODINGS:
        raise BackendOptionError(
            f"unknown at-most-one encoding {amo!r} (choose from {', '.join(AMO_ENCODINGS)})"
        )


@functools.cache
def base_cnf(size: int, box: Shape, encoding: str, amo: str) -> BaseCnf:
    """The base CNF of one shape, built once per process (it never depends on a puzzle).

    Raises:
        BackendOptionError: for an unknown encoding or at-most-one name.
    """
    check_encoding(encoding, amo)
    builder = _CnfBuilder(geometry(size, box), amo)
    builder.add_cell_constraints(extended=encoding == "extended")
    builder.add_unit_constraints(extended=encoding == "extended")
    return BaseCnf(
        size, box, encoding, amo, tuple(builder.clauses), builder.top, tuple(builder.cardinalities)
    )


class _CnfBuilder:
    """Collects clauses and hands out auxiliary variables above N^3."""

    def __init__(self, geo: Geometry, amo: str) -> None:
        self.geo = geo
        self.amo = amo
        self.clauses: list[tuple[int, ...]] = []
        self.cardinalities: list[tuple[tuple[int, ...], int]] = []
        self.top = geo.size**3

    def cell_literals(self, cell: int) -> list[int]:
        size = self.geo.size
        return [variable(cell, value, size) for value in range(1, size + 1)]

    def add_cell_constraints(self, *, extended: bool) -> None:
        """Every cell holds at least one value (and, extended, at most one)."""
        for cell in self.geo.cells:
            literals = self.cell_literals(cell)
            self.clauses.append(tuple(literals))
            if extended:
                self.add_at_most_one(literals)

    def add_unit_constraints(self, *, extended: bool) -> None:
        """No unit holds a value twice (and, extended, every unit holds every value)."""
        size = self.geo.size
        for value in range(1, size + 1):
            if self.amo == "pairwise":
                self.add_peers_differ(value)
            for unit in self.geo.units:
                literals = [variable(cell, value, size) for cell in unit]
                if self.amo != "pairwise":
                    self.add_at_most_one(literals)
                if extended:
                    self.clauses.append(tuple(literals))

    def add_peers_differ(self, value: int) -> None:
        """Pairwise at-most-one over all units at once: two peers never share a value.

        The same as pairwise per unit, without the clauses a box repeats from its rows and
        columns (9x9: 7,290 instead of 8,748 clauses).
        """
        size = self.geo.size
        for cell, peers in zip(self.geo.cells, self.geo.peers, strict=True):
            mine = -variable(cell, value, size)
            self.clauses.extend(
                (mine, -variable(peer, value, size)) for peer in peers if peer > cell
            )

    def add_at_most_one(self, literals: list[int]) -> None:
        if self.amo == NATIVE_AMO:
            self.cardinalities.append((tuple(literals), 1))
            return
        if self.amo == "pairwise":
            self.clauses.extend((-a, -b) for a, b in itertools.combinations(literals, 2))
            return
        from pysat.card import CardEnc, EncType

        encoded = CardEnc.atmost(
            literals, bound=1, top_id=self.top, encoding=getattr(EncType, self.amo)
        )
        self.clauses.extend(tuple(clause) for clause in encoded.clauses)
        self.top = max(self.top, encoded.nv)


@dataclass(frozen=True)
class CountCnf:
    """The implied row counts of one shape, numbered above a base CNF's variables."""

    clauses: tuple[tuple[int, ...], ...]
    variables: int  # the highest variable
    cardinalities: tuple[tuple[tuple[int, ...], int], ...] = ()  # native: (literals, at most k)


@functools.cache
def row_count_cnf(size: int, box: Shape, first: int, *, native: bool = False) -> CountCnf:
    """Implied row counts: per row r, cut b after each box but the last, and value v, a
    Boolean p "v is among the first b cells of row r", with exactly b of the N p true.

    Every completion satisfies them (a row holds each value once, so its first b cells hold b
    distinct values), so adding them removes no completion. Their use: unit propagation over
    them sees the row pigeonholes that the cell and unit clauses cannot (12 values left for
    the 12 cells of two boxes fill those cells, so no other cell may take them). Auxiliary
    variables start at `first`. "Exactly b" is a totalizer in clauses, or with `native` two
    cardinality constraints of the solver: at most b of the p, at most N - b of their negations.
    """
    from pysat.card import CardEnc, EncType

    clauses: list[tuple[int, ...]] = []
    cardinalities: list[tuple[tuple[int, ...], int]] = []
    top = first - 1
    box_cols = box[1]
    for row in range(size):
        cells = [row * size + column for column in range(size)]
        for cut in range(box_cols, size, box_cols):
            flags = []
            for value in range(1, size + 1):
                top += 1
                flags.append(top)
                left = [variable(cell, value, size) for cell in cells[:cut]]
                right = [variable(cell, value, size) for cell in cells[cut:]]
                clauses.extend((-x, top) for x in left)
                clauses.append((-top, *left))
                clauses.extend((-top, -x) for x in right)
                clauses.append((top, *right))
            if native:
                cardinalities.append((tuple(flags), cut))
                cardinalities.append((tuple(-flag for flag in flags), size - cut))
                continue
            exactly = CardEnc.equals(flags, bound=cut, top_id=top, encoding=EncType.totalizer)
            clauses.extend(tuple(clause) for clause in exactly.clauses)
            top = max(top, exactly.nv)
    return CountCnf(tuple(clauses), top, tuple(cardinalities))


def write_dimacs(
    grid: Grid, handle: TextIO, *, encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO
) -> None:
    """Write the puzzle's CNF (the base CNF plus one unit clause per given) in DIMACS.

    Raises:
        BackendOptionError: for an unknown encoding or at-most-one name, or `native`, which
            is not clauses.
    """
    check_encoding(encoding, amo)
    if amo not in CLAUSE_AMO_ENCODINGS:
        raise BackendOptionError(
            f"at-most-one {amo!r} is not clauses: DIMACS takes one of "
            f"{', '.join(CLAUSE_AMO_ENCODINGS)}"
        )
    cnf = base_cnf(grid.size, grid.box, encoding, amo)
    size = grid.size
    givens = grid.givens()
    auxiliary = cnf.first_auxiliary
    handle.write(
        f"c sudoku-cp {size}x{size} puzzle, boxes {grid.box[0]}x{grid.box[1]}: "
        f"{grid.to_line()}\n"
        f"c encoding {encoding}, at-most-one {amo}\n"
        f"c variable x(cell, value) = cell * {size} + value is true when the cell holds value\n"
        f"c   cell = row * {size} + column (0-based, row-major), value 1..{size}: "
        f"variables 1..{size**3}\n"
        + (
            f"c   auxiliary variables of the at-most-one encoding: {auxiliary}..{cnf.variables}\n"
            if auxiliary
            else "c   no auxiliary variables\n"
        )
        + f"c the last {len(givens)} clauses are the givens, as unit clauses\n"
        f"p cnf {cnf.variables} {len(cnf.clauses) + len(givens)}\n"
    )
    handle.writelines(" ".join(map(str, clause)) + " 0\n" for clause in cnf.clauses)
    handle.writelines(f"{variable(cell, value, size)} 0\n" for cell, value in givens.items())
