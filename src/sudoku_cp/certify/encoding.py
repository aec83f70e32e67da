"""The certificate CNF: written once, for certificates only, and reviewed for soundness.

It is deliberately *not* shared with `backends/sat/cnf.py`: a bug in the sat backend's encoding must
not be able to certify that backend's own wrong answer. Everything a certificate trusts of this
module is short enough to read in one sitting; `docs/certify.md` gives the argument at length.

Variables: x(c, v) = c*N + v, "cell c (row-major, 0-based) holds value v (1..N)"; auxiliaries
are numbered after N**3. A *completion* of a puzzle P is a full grid that keeps every given and
repeats no value in a row, column or box (`verify.check_completion`).

The one property (soundness): every clause written here is true under the one-hot assignment
x(c, v) = [C_c = v] of every completion C of P that the formula speaks of:

- `completion_formula(P)`: every completion of P;
- `lexmin_formula(P, S)`: every completion C < S (row-major), auxiliaries set as in
  `smaller_than`;
- `count_formula(P, found)`: every completion of P other than those in `found`.

So a checked refutation of the formula proves that no such completion exists. The converse is
never needed: a model is not trusted, it is decoded and checked by the one verifier.

Candidates (the only simplification): cand(c) is {P_c} for a given, and for a blank the values
that no given peer of c holds. In every completion C, C_c is in cand(c): a completion keeps the
givens, and a blank's value differs from every peer's value, so from every given peer's. Hence
x(c, v) with v outside cand(c) is false in every completion and is left out of every clause.
"""

from __future__ import annotations

import functools
import hashlib
import itertools
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass

from ..grid import BLANK, Grid

Clause = list[int]


@dataclass(frozen=True, eq=False)
class Formula:
    """A certificate CNF over variables 1..`variables`, about `puzzle`; `claim` says, in a
    DIMACS comment, what a refutation of it proves."""

    puzzle: Grid
    candidates: tuple[tuple[int, ...], ...]
    variables: int
    clauses: list[Clause]
    claim: str

    @functools.cached_property
    def dimacs(self) -> str:
        """The formula as DIMACS CNF text, comments first: what is checked and published."""
        box_rows, box_cols = self.puzzle.box
        head = [
            f"c sudoku-cp certificate: {self.claim}",
            f"c puzzle {self.puzzle.to_line()} box {box_rows}x{box_cols}",
            "c variable c*N+v: cell c (row-major, from 0) holds value v",
            f"p cnf {self.variables} {len(self.clauses)}",
        ]
        body = [" ".join(map(str, clause)) + " 0" for clause in self.clauses]
        return "\n".join(head + body) + "\n"

    @functools.cached_property
    def sha256(self) -> str:
        return hashlib.sha256(self.dimacs.encode("ascii")).hexdigest()

    def completion(self, model: Iterable[int]) -> Grid:
        """The grid a model states: per cell, its candidate whose variable is true (a blank when
        none or several are: the verifier then rejects it). Other variables are ignored."""
        size = self.puzzle.size
        true = {literal for literal in model if literal > 0}
        values = []
        for cell, candidates in enumerate(self.candidates):
            held = [value for value in candidates if cell * size + value in true]
            values.append(held[0] if len(held) == 1 else BLANK)
        return Grid(tuple(values), self.puzzle.box)


def candidates(puzzle: Grid) -> tuple[tuple[int, ...], ...]:
    """Per cell, the values a completion can hold there: the given, or for a blank every value
    that no given peer holds."""
    values = puzzle.values
    peers_of = puzzle.geometry.peer_getters
    every = range(1, puzzle.size + 1)
    found: list[tuple[int, ...]] = []
    for cell, given in enumerate(values):
        if given != BLANK:
            found.append((given,))
        else:
            taken = set(peers_of[cell](values))
            found.append(tuple(value for value in every if value not in taken))
    return tuple(found)


def _at_most_one(literals: Sequence[int]) -> Iterator[Clause]:
    return ([-first, -second] for first, second in itertools.combinations(literals, 2))


# From this size on the certificate formula holds the extended clauses (a cell holds at most one
# value, a unit holds every value); below it only the minimal ones, which are fewer to write,
# load and check where the solver needs no help to refute.
EXTENDED_FROM_SIZE = 16


def completion_clauses(puzzle: Grid, cands: Sequence[Sequence[int]]) -> list[Clause]:
    """Clauses true under every completion C of `puzzle`:

    - each cell holds one of its candidates (C_c is one: see the module docstring);
    - no unit holds a value twice: in a completion the N cells of a unit hold N different
      values, and a value only in a cell that has it as candidate;
    - from `EXTENDED_FROM_SIZE` on also: no cell holds two values (C_c is one value), and each
      value is in each unit (N different values of 1..N in N cells are all of them).

    Fewer clauses only say less, so the minimal set is as sound as the extended one. A given
    conflict (two equal givens in a unit) makes two one-literal cell clauses that an
    at-most-one clause of the unit contradicts. An empty clause (a cell without candidates, a
    value with no place in a unit) is true in every completion because there is none.
    """
    size = puzzle.size
    extended = size >= EXTENDED_FROM_SIZE
    clauses: list[Clause] = []
    for cell, values in enumerate(cands):
        literals = [cell * size + value for value in values]
        clauses.append(literals)
        if extended:
            clauses.extend(_at_most_one(literals))
    allowed = [set(values) for values in cands]
    for unit in puzzle.geometry.units:
        for value in range(1, size + 1):
            literals = [cell * size + value for cell in unit if value in allowed[cell]]
            if extended:
                clauses.append(literals)
            clauses.extend(_at_most_one(literals))
    return clauses


def smaller_than(
    puzzle: Grid, solution: Grid, cands: Sequence[Sequence[int]], first: int
) -> tuple[list[Clause], int]:
    """Clauses true under every completion C smaller than `solution` S, row-major; auxiliaries
    from `first`; returns them and the next free variable.

    Over the blanks b_1 < b_2 < ... (givens are equal in every completion): e_j "C equals S on
    b_1..b_j" (e_j -> x(b_j, S_j), e_j -> e_(j-1)); l_k "C equals S before b_k and is smaller at
    b_k" (l_k -> some x(b_k, v) with v < S_k a candidate, l_k -> e_(k-1)), made only where such
    a v exists; one clause: some l_k. For C < S, let b_k be the first blank where C and S
    differ: C_k < S_k, and C_k is a candidate. Setting e_j true for j < k and false after, l_k
    true and every other l false makes every clause true.
    """
    size = puzzle.size
    clauses: list[Clause] = []
    some_smaller: Clause = []
    equal_so_far: int | None = None
    free = first
    blanks = puzzle.blanks()
    for position, cell in enumerate(blanks):
        value = solution.values[cell]
        below = [cell * size + smaller for smaller in cands[cell] if smaller < value]
        if below:
            smaller_here, free = free, free + 1
            some_smaller.append(smaller_here)
            clauses.append([-smaller_here, *below])
            if equal_so_far is not None:
                clauses.append([-smaller_here, equal_so_far])
        if position + 1 < len(blanks):  # the last blank's equality is never used
            equal_here, free = free, free + 1
            clauses.append([-equal_here, cell * size + value])
            if equal_so_far is not None:
                clauses.append([-equal_here, equal_so_far])
            equal_so_far = equal_here
    clauses.append(some_smaller)
    return clauses, free


def other_than(puzzle: Grid, completion: Grid) -> Clause:
    """A clause true under every completion of `puzzle` other than `completion`: another
    completion differs from it in some blank (the givens are equal), where its variable is
    false."""
    size = puzzle.size
    return [-(cell * size + completion.values[cell]) for cell in puzzle.blanks()]


def completion_formula(puzzle: Grid) -> Formula:
    """True under every completion of `puzzle`: refuted, the puzzle has none."""
    cands = candidates(puzzle)
    return Formula(
        puzzle, cands, puzzle.size**3, completion_clauses(puzzle, cands), "no completion exists"
    )


def lexmin_formula(puzzle: Grid, solution: Grid) -> Formula:
    """True under every completion smaller than `solution`: refuted, `solution` (checked to be a
    completion) is the lex-min."""
    cands = candidates(puzzle)
    clauses = completion_clauses(puzzle, cands)
    lex, free = smaller_than(puzzle, solution, cands, puzzle.size**3 + 1)
    return Formula(
        puzzle,
        cands,
        free - 1,
        clauses + lex,
        f"no completion is smaller than {solution.to_line()}",
    )


def count_formula(puzzle: Grid, found: Sequence[Grid]) -> Formula:
    """True under every completion other than `found`: refuted, `found` (checked to be distinct
    completions) are all the completions."""
    cands = candidates(puzzle)
    clauses = completion_clauses(puzzle, cands) + [other_than(puzzle, grid) for grid in found]
    return Formula(
        puzzle, cands, puzzle.size**3, clauses, f"no completion other than the {len(found)} blocked"
    )


__all__ = [
    "EXTENDED_FROM_SIZE",
    "Formula",
    "candidates",
    "completion_clauses",
    "completion_formula",
    "count_formula",
    "lexmin_formula",
    "other_than",
    "smaller_than",
]
