"""The `sat` backend: a CNF encoding solved by python-sat, lex-min by iterative tightening or by
a row-major search over the solver's unit propagation.

Variables are numbered by formula: x(cell, value) = cell * N + value (cell row-major, 0-based;
value 1..N), so x runs over 1..N^3 and the auxiliary variables of an at-most-one encoding start at
N^3 + 1. Two encodings (Lynce & Ouaknine, "Sudoku as a SAT problem"):

    minimal   every cell holds at least one value; no unit holds a value twice.
    extended  minimal, plus: every cell holds at most one value; every unit holds every value.

The at-most-one constraints use `pysat.card` (pairwise, sequential counter, ladder, ...).

One solver per (size, box, encoding, at-most-one, solver name) is kept in the backend and reused
across puzzles. The givens go in as assumptions, never as clauses, so every learnt clause follows
from the base CNF alone and stays valid for the next puzzle. The only clauses a puzzle adds are the
blocking clauses of count mode; they carry a fresh activation literal of that puzzle, which is
switched off for good (the unit clause -act) when the puzzle is done.

Lex-min by iterative tightening: take a model; walk the blank cells row-major; at cell i, with
the prefix fixed (assumptions), ask for x(i) < s, where s is the current model's value, through the
assumptions -x(i, v) for v >= s. SAT gives a strictly smaller model (stay at i); UNSAT makes s
final (one more assumption). A call is skipped when no smaller value is left, because s = 1 or
every smaller value sits in a fixed peer.

Lex-min by propagation (`lexmin=propagation`; `auto` from 25x25 on puzzles with at most a third
of the cells given): a depth-first search in Python over the blank cells row-major, values
ascending, where the solver's `propagate()` is the propagation. A value whose propagation
conflicts is refuted; the first that does not is taken and the search moves on. The solver also
holds implied row counts (`row_count_cnf`), which let propagation see the row pigeonholes that
make the greedy fill of big grids fail. Why the first full grid is the lex-min: propagation is
sound, so every value passed over at a cell has no completion under the cells before it, and the
search meets grids in lexicographic order. A dead end (no value of the next cell survives) is
undone by one SAT call on the assumed cells, which is UNSAT; its core names the latest cell it
rests on, whose value is refuted, and the search resumes there. The last WINDOW_ROWS * N cells
are assumptions; older ones and the givens become unit clauses, because propagate() otherwise
propagates and returns every assumption's consequences on every call. A unit clause cannot be
taken back, so a dead end whose core holds no assumed cell (an older cell is wrong), or more
than N^2/2 dead ends, gives the search up: the puzzle is solved again by tightening on the kept
solver (built on the clock if need be). The search's solver is thus good for one puzzle; the
next puzzle's `prepare()` builds another.

`solver=auto` (the default) is glucose3 below 25x25 and minisatgh from there (BIG_GRID_SOLVER
says why: Glucose reads an interrupt only when it restarts, and on big sparse grids it did not
restart for 100,000+ conflicts).

Time limits use the solver's interrupt: a watchdog thread calls `interrupt()` when the puzzle's
budget runs out (CaDiCaL, which has no interrupt() in python-sat, runs in conflict-budget slices
instead); the interrupted call returns None and the puzzle is a TIMEOUT. A solver that was
interrupted or raised is never asked again. Ctrl-C inside a kept solver has left it giving wrong
answers (docs/backends.md, the sat section); `interrupt()` did not here (glucose3 and glucose4
each answered 800 checks right after 200+ interrupts), but a rebuild costs only ~6 ms on a 9x9 and
~0.35 s on a 25x25, so doubt wins.

Set-up is not solving: the pysat import, the base CNF and loading it into a solver happen in
`prepare()`, before the puzzle's clock starts (`Backend.solve`), so a time limit below the build
time still solves an easy puzzle of a new shape. A kept solver that was interrupted is only
marked after its puzzle; the next puzzle of that shape rebuilds it in `prepare()` and says so in
stats["rebuilt"].

A kept solver is not a fresh one: its variable order, saved phases and learnt clauses come from
earlier puzzles, and a fresh solver's order (row-major, values ascending) happens to suit lex-min.
So a puzzle on a used solver gets `KEPT_CONFLICT_ALLOWANCE` conflicts; past them it is abandoned
and solved again on a fresh solver (built on the clock: stats["rebuilt"] = "slow", with the
abandoned attempt's conflicts, calls and seconds). A puzzle thus costs about its fresh cost plus
the allowance's worth of search plus one rebuild.

The search by propagation reads the clock before every propagate() call (each lasts
milliseconds); a build on the clock (the fallback's solver) is not started when the shape's last
build took longer than the time left.

Glucose reads both the interrupt and a conflict budget only between restarts, so a time limit or
the allowance is honoured at the next restart. That is usually within ~50 conflicts, but a search
that blocks its restarts can run on: a kept solver, before the allowance, ran 914,338 conflicts
in one stretch and overran a 120 s limit by 273 s (benchmarks/bench_sat_kept.py --allowance none
--time-limit 120).
"""

from __future__ import annotations

import functools
import itertools
import logging
import math
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, TextIO

from ..errors import BackendFailure, BackendOptionError, is_solver_interrupt
from ..grid import BLANK, Geometry, Grid, Shape, geometry
from ..result import Mode, Status
from .base import Backend, BackendOption, Deadline, Outcome

logger = logging.getLogger(__name__)

ENCODINGS = ("extended", "minimal")

# The at-most-one encodings of pysat.card that suit a plain clause list ("native" needs a
# cardinality solver, so it is left out).
AMO_ENCODINGS = (
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

# Chosen by benchmarks/bench_sat.py (python-sat 1.9.dev24, shared 2-core VM, lex-min):
# - extended + pairwise beats every other encoding: empty 25x25 2.4 s, where minimal + pairwise
#   took > 20 s (and extended + ladder 19.5 s in an earlier run); empty 16x16 0.03 s (one SAT
#   call) against 0.26-3.2 s for bitwise, seqcounter, the totalizers and the sorting networks and
#   6.5 s to > 10 s for every minimal one but pairwise; 9x9 sparse puzzles 1.9 ms median against
#   2.6-51 ms.
# - the Glucose family (glucose3/4/42, gluecard3/4) ties on 9x9 (1.9 ms) and 16x16 and leads on
#   25x25; minisat22, minisat-gh, minisatep, minicard, maplechrono and ergo exceed 20 s on the
#   empty 25x25, maplecm is 17x slower on 9x9. glucose3 edged glucose4 in 5 of 6 runs on 25x25
#   (empty: 2.43 vs 2.69 s, 13,157 vs 15,537 conflicts; 5 random 25x25: 4.9 vs 5.6 s): a near tie.
DEFAULT_SOLVER = "glucose3"
# The option's default, `auto`, takes DEFAULT_SOLVER below BIG_GRID_SIZE and BIG_GRID_SOLVER from
# there. Why (python-sat 1.9.dev24, CPU s, one run each; docs/backends.md has the table): Glucose
# reads interrupt() and conflict budgets only when it restarts, and on big sparse grids it went
# 100,000-133,000 conflicts without one (a 0.5 s limit on the empty 36x36 ended after 12-21 s);
# MiniSat reads them before every decision (returned within 0.02 s of interrupt()). It was also
# faster there: `any` on the empty 36x36 0.11 s against 9.0 s, the empty 49x49 0.64 s against no
# answer in 300 s, a quarter-given 49x49 0.8 s against 10.3 s; tightening on half-given 25x25
# and 30x30 puzzles a near tie (0.05-10 s either way).
AUTO_SOLVER = "auto"
BIG_GRID_SIZE = 25
BIG_GRID_SOLVER = "minisatgh"
DEFAULT_ENCODING = "extended"
DEFAULT_AMO = "pairwise"

# Solvers python-sat ships that this backend refuses, and why. The time limit needs interrupt()
# or conflict budgets, and the reused solver relies on assumptions and repeated solve() calls.
REFUSED_SOLVERS: Mapping[str, str] = {
    "kissat404": "ignores assumptions and does not support incremental solve() calls",
    "lingeling": "has no solve_limited() or interrupt() in python-sat, so no time limit",
    "cryptosat": "has no interrupt() in python-sat, so no time limit (and needs pycryptosat)",
}


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


def _value_in(model: Sequence[int], cell: int, size: int) -> int:
    """The value a model gives one cell (decoding one cell is all the tightening loop needs).

    The model lists literals by variable, so the cell's N literals are one slice, and its one
    true literal (the only positive one) is their maximum: a C-level pass, not a Python loop.
    """
    start = cell * size
    value = max(model[start : start + size]) - start
    if not 1 <= value <= size:
        raise BackendFailure(f"the SAT model gives cell {cell} no value")
    return value


# -- the CNF --------------------------------------------------------------------------------------


@dataclass(frozen=True)
class BaseCnf:
    """The clauses every puzzle of one shape shares; the givens are not part of it."""

    size: int
    box: Shape
    encoding: str
    amo: str
    clauses: tuple[tuple[int, ...], ...]
    variables: int  # the highest variable: N^3, or above with auxiliary variables

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
    """The base CNF of one shape, built once per process (it never depends on a puzzle)."""
    check_encoding(encoding, amo)
    builder = _CnfBuilder(geometry(size, box), amo)
    builder.add_cell_constraints(extended=encoding == "extended")
    builder.add_unit_constraints(extended=encoding == "extended")
    return BaseCnf(size, box, encoding, amo, tuple(builder.clauses), builder.top)


@dataclass(frozen=True)
class CountCnf:
    """The implied row counts of one shape, numbered above a base CNF's variables."""

    clauses: tuple[tuple[int, ...], ...]
    variables: int  # the highest variable


@functools.cache
def row_count_cnf(size: int, box: Shape, first: int) -> CountCnf:
    """Implied row counts: per row r, cut b after each box but the last, and value v, a
    Boolean p "v is among the first b cells of row r", with exactly b of the N p true.

    Every completion satisfies them (a row holds each value once, so its first b cells hold b
    distinct values), so adding them removes no completion. Their use: unit propagation over
    them sees the row pigeonholes that the cell and unit clauses cannot (12 values left for
    the 12 cells of two boxes fill those cells, so no other cell may take them). Auxiliary
    variables start at `first`.
    """
    from pysat.card import CardEnc, EncType

    clauses: list[tuple[int, ...]] = []
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
            exactly = CardEnc.equals(flags, bound=cut, top_id=top, encoding=EncType.totalizer)
            clauses.extend(tuple(clause) for clause in exactly.clauses)
            top = max(top, exactly.nv)
    return CountCnf(tuple(clauses), top)


class _CnfBuilder:
    """Collects clauses and hands out auxiliary variables above N^3."""

    def __init__(self, geo: Geometry, amo: str) -> None:
        self.geo = geo
        self.amo = amo
        self.clauses: list[tuple[int, ...]] = []
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
        if self.amo == "pairwise":
            self.clauses.extend((-a, -b) for a, b in itertools.combinations(literals, 2))
            return
        from pysat.card import CardEnc, EncType

        encoded = CardEnc.atmost(
            literals, bound=1, top_id=self.top, encoding=getattr(EncType, self.amo)
        )
        self.clauses.extend(tuple(clause) for clause in encoded.clauses)
        self.top = max(self.top, encoded.nv)


def write_dimacs(
    grid: Grid, handle: TextIO, *, encoding: str = DEFAULT_ENCODING, amo: str = DEFAULT_AMO
) -> None:
    """Write the puzzle's CNF (the base CNF plus one unit clause per given) in DIMACS.

    Raises:
        BackendOptionError: for an unknown encoding or at-most-one name.
    """
    check_encoding(encoding, amo)
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


# -- the solver -----------------------------------------------------------------------------------


def check_solver(name: str) -> str:
    """The canonical python-sat name of an accepted solver (aliases such as 'g4' allowed), or
    'auto' (chosen by grid size).

    Raises:
        BackendOptionError: for an unknown or a refused solver, listing the accepted names.
    """
    if name.lower() == AUTO_SOLVER:
        return AUTO_SOLVER
    canonical = _solver_aliases().get(name.lower())
    accepted = ", ".join(accepted_solvers())
    if canonical is None:
        raise BackendOptionError(f"unknown SAT solver {name!r} (choose from {accepted})")
    if canonical in REFUSED_SOLVERS:
        raise BackendOptionError(
            f"SAT solver {name!r} {REFUSED_SOLVERS[canonical]} (choose from {accepted})"
        )
    return canonical


def accepted_solvers() -> list[str]:
    """The python-sat solvers this backend accepts, by canonical name."""
    return sorted({name for name in _solver_aliases().values() if name not in REFUSED_SOLVERS})


def solver_choices() -> list[str]:
    """What the `solver` option takes: 'auto', then every accepted solver."""
    return [AUTO_SOLVER, *accepted_solvers()]


def solver_for(name: str, size: int) -> str:
    """The solver a grid of this size runs on: the named one, or the `auto` choice."""
    if name != AUTO_SOLVER:
        return name
    return BIG_GRID_SOLVER if size >= BIG_GRID_SIZE else DEFAULT_SOLVER


@functools.cache
def _solver_aliases() -> dict[str, str]:
    """Every python-sat solver name and alias mapped to its canonical name (the family name in
    `SolverNames`, e.g. 'glucose4' for 'g4')."""
    from pysat.solvers import SolverNames

    aliases = {}
    for canonical, names in vars(SolverNames).items():
        if not canonical.startswith("_") and isinstance(names, tuple):
            for alias in (canonical, *names):
                aliases[alias.lower()] = canonical
    return aliases


def _constructor_name(canonical: str) -> str:
    """A name `Solver(name=...)` takes: it wants a listed alias, and 'minisatgh' is only listed
    as 'minisat-gh'."""
    from pysat.solvers import SolverNames

    names: tuple[str, ...] = getattr(SolverNames, canonical)
    return canonical if canonical in names else names[-1]


# Solvers with no interrupt() in python-sat but with conflict budgets: a timed call runs in
# slices of this many conflicts, the clock read between slices (a slice of an empty 25x25 lasts a
# few ms, so the limit is kept to within that).
BUDGETED_SOLVERS = frozenset({"cadical103", "cadical153", "cadical195", "cadical300"})
CONFLICTS_PER_SLICE = 1000


# The conflicts a puzzle may run on a used kept solver before it is abandoned and solved again on
# a fresh one. Why: whatever a kept solver carries over (variable order, saved phases, learnt
# clauses) can send a search-heavy lex-min far off. Measured (glucose3, python-sat 1.9.dev24): the
# empty 25x25 lex-min takes 13,157 conflicts on a fresh solver; after the five puzzles of
# data/generated/unique-25x25.txt (17,529 conflicts) it took 3.47 M (341.7 s, the issue); after
# one puzzle of data/generated/multi-25x25.txt, which itself ran 0 conflicts, it took 146k, over
# 395k (stopped), 14.9k, over 397k (stopped) and 45.8k. So no count of past conflicts predicts it
# (a rebuild after 2,000 of them fixed the sequence but not these), while a bound on the
# attempt does. 2,000 conflicts are ~0.4 s of 25x25 search, the order of a 25x25 rebuild
# (~0.35 s): a fallback adds about those two to the fresh solve. A 9x9 lex-min averages ~1.4
# conflicts (17clue), so 9x9 puzzles practically never fall back.
# Glucose reads a conflict budget (like an interrupt) only between restarts, so the bound holds at
# the next restart: on the sequence the kept attempt at the empty 25x25 stopped after
# 2,282 conflicts and the fresh solver then took its usual 13,157 (benchmarks/bench_sat_kept.py).
# (Not for the CaDiCaL solvers, which already spend their conflict budget on time slices.)
KEPT_CONFLICT_ALLOWANCE = 2000

LEXMIN_METHODS = ("auto", "tightening", "propagation")

# lexmin=auto searches by propagation from this size. Why (glucose3, one run, CPU s, empty grid
# / a quarter given, docs/backends.md has the table): at 25x25 tightening took 1.9 / 1.5 s and
# the search 0.1 / 0.1 s; at 36x36 tightening did not finish in 300 s.
PROPAGATION_FROM_SIZE = 25
# ... for puzzles with at most this fraction of the cells given (numerator, denominator). Why:
# the search learns only at its dead ends and cannot undo a unit clause, so it suits sparse
# grids, where the row-major fill rarely meets a dead end; on half-given puzzles (near the
# hardness peak) it gave up within a second at 30x30 and 36x36, and tightening, whose first SAT
# call finds a completion of a dense puzzle, is the better start there.
PROPAGATION_MAX_GIVENS = (1, 3)

# The search by propagation keeps the last WINDOW_ROWS * N cells as assumptions and makes older
# ones unit clauses. Why: propagate() re-propagates every assumption and returns the whole trail
# (6-17 ms at 36x36 with a full prefix as assumptions, against ~0.3 ms with units), and a unit
# cannot be taken back, so a dead end that reaches below the window gives up the search. Three
# rows were enough for every empty grid to 56x56; two were not at 42x42.
WINDOW_ROWS = 3

# The solvers whose propagate() the search trusts: a conflict it reports must be a real one.
# Not CaDiCaL: pysathq/pysat#232 (open) reports false conflicts from propagate() after a solve()
# on CaDiCaL 1.5.3 and 1.9.5, and cadical103 has no propagate() at all.
PROPAGATING_SOLVERS = frozenset(
    {
        "glucose3",
        "glucose4",
        "glucose42",
        "gluecard3",
        "gluecard4",
        "maplechrono",
        "maplecm",
        "maplesat",
        "mergesat3",
        "minicard",
        "minisat22",
        "minisatgh",
        "minisatep",
        "ergo",
    }
)


class _TimeUp(Exception):
    """The puzzle's time budget ran out during (or before) a solver call."""

    count: int | None = None  # in count mode: the completions found before the budget ran out


class _OverAllowance(Exception):
    """A puzzle on a used kept solver ran past its conflict allowance."""

    def __init__(self) -> None:
        super().__init__("past the kept solver's conflict allowance")
        self.conflicts = 0
        self.calls = 0
        self.seconds = 0.0


class _KeptSolver:
    """A python-sat solver loaded with a base CNF, kept for the puzzles of a batch.

    Why keep it: mean ms per 9x9 puzzle (glucose3, benchmarks/bench_sat.py) -- lexmin on top95
    0.77 kept / 3.29 new solver on the cached CNF / 5.23 new CNF and solver; lexmin serg 0.37 /
    2.99 / 5.07; any on 17clue 0.17 / 2.73 / 4.70. Loading the 9x9 CNF costs ~3 ms, the 25x25
    one ~0.35 s.
    """

    def __init__(self, cnf: BaseCnf, solver_name: str, counts: CountCnf | None = None) -> None:
        from pysat.solvers import Solver

        self.cnf = cnf
        self.name = solver_name
        self.counts = counts  # the implied row counts, for lex-min by propagation only
        self.budgeted = solver_name in BUDGETED_SOLVERS  # time limit by conflict budgets
        self.solver = Solver(name=_constructor_name(solver_name))
        self.solver.append_formula(cnf.clauses)
        if counts is not None:
            self.solver.append_formula(counts.clauses)
        # activation literals are numbered above everything else
        self.top = cnf.variables if counts is None else counts.variables
        self.used = False  # a puzzle has run on it: it is no longer a fresh solver
        self.retired: str | None = None  # why the next puzzle must have a new solver instead

    @property
    def clause_count(self) -> int:
        """The clauses loaded before any puzzle (base CNF, and the counts when there)."""
        return len(self.cnf.clauses) + (0 if self.counts is None else len(self.counts.clauses))

    def fresh_activation(self) -> int:
        """A variable no clause has used yet, to guard one puzzle's clauses."""
        self.top += 1
        return self.top

    def statistics(self) -> dict[str, int]:
        """The solver's cumulative counters (empty when the solver exposes none)."""
        try:
            return {key: int(value) for key, value in self.solver.accum_stats().items()}
        except NotImplementedError:
            return {}

    def delete(self) -> None:
        try:
            self.solver.delete()
        except Exception:  # a broken solver may fail to free itself; it is dropped either way
            pass


class _Watchdog:
    """One thread per backend that interrupts the solver of the running puzzle at its deadline.

    Why not a `threading.Timer` per puzzle: starting and joining one cost ~0.85 ms here, which
    cut 17clue `any` with a time limit from ~5,000 to ~1,900 puzzles/s. This thread is started on
    the first timed puzzle and ends by itself after `IDLE_SECONDS` without one, so a backend that
    is never closed leaves no thread behind for long.
    """

    IDLE_SECONDS = 2.0
    # The longest single sleep. Condition.wait() raises OverflowError ("timestamp out of range for
    # platform time_t") past threading.TIMEOUT_MAX (~9.2e9 s), which a limit of 1e10 s or inf
    # used to reach; a far deadline is waited for in steps instead.
    LONGEST_WAIT = 3600.0

    def __init__(self) -> None:
        self._condition = threading.Condition()
        self._armed: tuple[_Session, float] | None = None
        self._thread: threading.Thread | None = None
        self._waking_at: float | None = None  # when the thread wakes next (None: on notify)

    def arm(self, session: _Session, at: float) -> None:
        """Interrupt this session's solver when the monotonic clock reaches `at` (never, for a
        deadline that is not a finite number)."""
        with self._condition:
            if not math.isfinite(at):
                self._armed = None
                return
            self._armed = (session, at)
            if self._thread is None:
                self._thread = threading.Thread(
                    target=self._watch, name="sat-watchdog", daemon=True
                )
                self._thread.start()
            elif self._waking_at is None or at < self._waking_at:
                self._condition.notify()
            # else: the thread wakes earlier anyway and then reads the new deadline; not waking
            # it for every puzzle of a batch keeps arming at a lock and an assignment.

    def disarm(self) -> None:
        """Cancel the pending interrupt; once this returns, none can still be delivered."""
        with self._condition:  # the interrupt is sent holding this lock, so it is done or void
            self._armed = None

    def _watch(self) -> None:
        try:
            self._watch_until_idle()
        except Exception as error:  # never a thread traceback; the next arm() starts a new thread
            logger.warning("the SAT watchdog stopped: %s", error)
            with self._condition:
                self._thread = None

    def _watch_until_idle(self) -> None:
        with self._condition:
            while True:
                if self._armed is None:
                    self._waking_at = None
                    if not self._condition.wait(self.IDLE_SECONDS) and self._armed is None:
                        self._thread = None
                        return
                    continue
                session, at = self._armed
                remaining = at - time.perf_counter()
                if remaining > 0:
                    self._waking_at = at
                    self._condition.wait(min(remaining, self.LONGEST_WAIT))
                    continue
                session.interrupt()
                self._armed = None


class _Session:
    """One puzzle's calls to a kept solver under one time budget.

    The watchdog interrupts the solver when the budget runs out; an interrupt that lands between
    two calls stops the next one (see `satisfiable`).
    """

    def __init__(
        self,
        kept: _KeptSolver,
        deadline: Deadline,
        watchdog: _Watchdog,
        allowance: int | None = None,
    ) -> None:
        self.kept = kept
        self.solver = kept.solver
        self.deadline = deadline
        self.watchdog = watchdog
        self.allowance = allowance  # conflicts this puzzle may run (None: no bound)
        self.timed = deadline.at is not None
        self.calls = 0
        self.propagations = 0  # propagate() calls: answers by unit propagation alone
        self.clauses_added = 0
        self.suspect = False  # interrupted (or stopped) during a call: never ask this solver again

    def __enter__(self) -> _Session:
        if self.deadline.at is not None:
            if self.deadline.expired():
                raise _TimeUp
            if not self.kept.budgeted:
                self.watchdog.arm(self, self.deadline.at)
        if self.allowance is not None:
            # One budget for the whole puzzle: the solver counts it from its conflicts so far.
            self.solver.conf_budget(self.allowance)
        return self

    def interrupt(self) -> None:
        """Called by the watchdog at the deadline."""
        self.suspect = True
        self.solver.interrupt()

    def __exit__(self, *exc_info: object) -> None:
        if self.timed and not self.kept.budgeted:
            self.watchdog.disarm()
            self.solver.clear_interrupt()
        if self.allowance is not None:
            self.solver.conf_budget(-1)  # python-sat: -1 (or 0) switches the budget off

    def satisfiable(self, assumptions: list[int]) -> bool:
        """Whether the base CNF has a model under these assumptions.

        Raises:
            _TimeUp: when the budget ran out before the call finished.
            _OverAllowance: when the call ran out of the puzzle's conflict allowance.
        """
        if self.suspect:
            # The watchdog fired between calls. Calls answered by propagation alone ignore
            # the interrupt flag, so stop here rather than run past the deadline.
            raise _TimeUp
        self.calls += 1
        if self.kept.budgeted:
            return self._satisfiable_in_slices(assumptions)
        answer = self.solver.solve_limited(assumptions=assumptions, expect_interrupt=self.timed)
        if answer is None:
            if self.allowance is not None and not self.suspect and not self.deadline.expired():
                raise _OverAllowance
            self.suspect = True
            raise _TimeUp
        return bool(answer)

    def _satisfiable_in_slices(self, assumptions: list[int]) -> bool:
        """For solvers without interrupt(): conflict-budget slices, the clock read in between."""
        if not self.timed:
            return bool(self.solver.solve(assumptions=assumptions))
        while True:
            self.solver.conf_budget(CONFLICTS_PER_SLICE)
            answer = self.solver.solve_limited(assumptions=assumptions)
            if answer is not None:
                return bool(answer)
            if self.deadline.expired():
                self.suspect = True
                raise _TimeUp

    def consistent(self, assumptions: list[int]) -> bool:
        """Whether unit propagation from these assumptions meets no conflict (a conflict proves
        that no model has them all; no conflict proves nothing).

        Raises:
            _TimeUp: when the budget has run out (propagate() itself cannot be interrupted, but
                one call lasts milliseconds).
        """
        if self.suspect or self.deadline.expired():
            raise _TimeUp
        self.propagations += 1
        consistent, _ = self.solver.propagate(assumptions=assumptions)
        return bool(consistent)

    def core(self) -> list[int]:
        """The assumptions the last UNSAT answer rests on (empty: it rests on clauses alone)."""
        core: list[int] | None = self.solver.get_core()
        return core or []

    def add_clause(self, clause: list[int]) -> None:
        self.clauses_added += 1
        self.solver.add_clause(clause)

    def model(self) -> list[int]:
        model: list[int] | None = self.solver.get_model()
        if model is None:
            raise BackendFailure("the SAT solver answered SAT without a model")
        return model


# -- the backend ----------------------------------------------------------------------------------

# size, box, encoding, at-most-one, solver name, with the row counts (the propagation solver)
_SolverKey = tuple[int, Shape, str, str, str, bool]


@dataclass(frozen=True)
class _Setup:
    """A solver build done for the next puzzle: which solver, how long, and what it replaced."""

    key: _SolverKey
    seconds: float
    rebuilt: str | None  # the retired solver's reason, None for a shape's first solver


class SatBackend(Backend):
    """CNF + python-sat: a kept incremental solver, lex-min by iterative tightening or, on big
    grids, by a row-major search over the solver's unit propagation."""

    name: ClassVar[str] = "sat"
    description: ClassVar[str] = (
        "SAT (python-sat): CNF encoding, lex-min by iterative tightening "
        "or by a row-major search over unit propagation"
    )
    requires: ClassVar[tuple[str, ...]] = ("pysat",)
    packages: ClassVar[tuple[str, ...]] = ("python-sat",)
    setup_modules: ClassVar[tuple[str, ...]] = ("pysat.solvers",)
    options: ClassVar[tuple[BackendOption, ...]] = (
        BackendOption(
            "solver",
            f"python-sat solver (aliases such as g4 allowed); auto: {DEFAULT_SOLVER} below "
            f"{BIG_GRID_SIZE}x{BIG_GRID_SIZE}, {BIG_GRID_SOLVER} from there",
            AUTO_SOLVER,
            choices=solver_choices,
            flag="--sat-solver",
            parse=check_solver,
            renamed_from=("sat_solver",),
        ),
        BackendOption(
            "encoding",
            "CNF encoding: minimal (cell and unit at-least-one, "
            "at-most-one per unit) or extended (both in all four)",
            DEFAULT_ENCODING,
            choices=ENCODINGS,
            flag="--encoding",
        ),
        BackendOption(
            "amo",
            "at-most-one encoding (pysat.card)",
            DEFAULT_AMO,
            choices=AMO_ENCODINGS,
            flag="--amo",
        ),
        BackendOption(
            "lexmin",
            "lex-min method: tightening (SAT calls on a kept solver), propagation (row-major "
            f"search over unit propagation, with implied row counts), auto (propagation from "
            f"{PROPAGATION_FROM_SIZE}x{PROPAGATION_FROM_SIZE}, at most a third of the cells given)",
            "auto",
            choices=LEXMIN_METHODS,
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.sat_solver: str = self.option_values["solver"]
        self.encoding: str = self.option_values["encoding"]
        self.amo: str = self.option_values["amo"]
        self.lexmin: str = self.option_values["lexmin"]
        if self.lexmin == "propagation" and self.sat_solver not in {
            AUTO_SOLVER,
            *PROPAGATING_SOLVERS,
        }:
            raise BackendOptionError(
                f"lexmin=propagation needs a solver whose propagate() can be trusted "
                f"(choose from {', '.join(sorted(PROPAGATING_SOLVERS))})"
            )
        # Conflicts a puzzle may run on a used kept solver before a fresh one takes it over
        # (None: no bound, the kept solver finishes whatever it costs).
        self.kept_allowance: int | None = KEPT_CONFLICT_ALLOWANCE
        self._solvers: dict[_SolverKey, _KeptSolver] = {}
        self._build_seconds: dict[_SolverKey, float] = {}  # the last build of each key
        self._watchdog = _Watchdog()
        self._setup: _Setup | None = None  # what prepare_for() did for the puzzle about to run

    def close(self) -> None:
        """Delete the kept solvers."""
        for kept in self._solvers.values():
            kept.delete()
        self._solvers.clear()
        self._setup = None

    def by_propagation(self, grid: Grid) -> bool:
        """Whether a lex-min of this grid starts with the search by propagation."""
        if self.lexmin == "auto":
            return (
                grid.size >= PROPAGATION_FROM_SIZE
                and solver_for(self.sat_solver, grid.size) in PROPAGATING_SOLVERS
                and len(grid.givens()) * PROPAGATION_MAX_GIVENS[1]
                <= grid.size**2 * PROPAGATION_MAX_GIVENS[0]
            )
        return self.lexmin == "propagation"

    def _key(self, grid: Grid, *, counts: bool = False) -> _SolverKey:
        solver = solver_for(self.sat_solver, grid.size)
        return (grid.size, grid.box, self.encoding, self.amo, solver, counts)

    def prepare(self, grid: Grid) -> bool:
        """`prepare_for` a lex-min puzzle of this grid's shape."""
        return self.prepare_for(grid, Mode.LEXMIN)

    def prepare_for(self, grid: Grid, mode: Mode | str) -> bool:
        """Build the solver a puzzle of this mode will use (the one with the row counts, or the
        kept one), or rebuild a retired one, before the puzzle's clock starts (the pysat
        import, the CNF and loading it are set-up, not solving); `Backend.solve` calls it with
        the puzzle's mode."""
        lexmin = Mode(mode) is Mode.LEXMIN
        key = self._key(grid, counts=lexmin and self.by_propagation(grid))
        kept = self._solvers.get(key)
        self._setup = None
        if kept is not None and kept.retired is None:
            return False
        self._setup = self._build(key)
        return True

    def _build(self, key: _SolverKey) -> _Setup:
        """A new kept solver for this key, replacing a retired one."""
        start = time.perf_counter()
        retired = self._solvers.pop(key, None)
        reason = None
        if retired is not None:
            reason = retired.retired
            retired.delete()
        size, box, encoding, amo, solver_name, counts = key
        cnf = base_cnf(size, box, encoding, amo)
        extra = row_count_cnf(size, box, cnf.variables + 1) if counts else None
        self._solvers[key] = _KeptSolver(cnf, solver_name, extra)
        seconds = time.perf_counter() - start
        self._build_seconds[key] = seconds
        return _Setup(key, seconds, reason)

    def _build_on_the_clock(self, key: _SolverKey, deadline: Deadline) -> _Setup:
        """A build inside a puzzle's time (a fallback, a direct call). A build cannot be
        interrupted, so it is not started when the last build of this shape took longer than
        the time left.

        Raises:
            _TimeUp: when the time left is shorter than the last build took.
        """
        remaining = deadline.remaining()
        if remaining is not None:
            expected = max(
                (seconds for known, seconds in self._build_seconds.items() if known[:2] == key[:2]),
                default=0.0,
            )
            if remaining < expected:
                raise _TimeUp
        return self._build(key)

    # -- one puzzle ------------------------------------------------------------------------------

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        if mode is Mode.LEXMIN and self.by_propagation(grid):
            try:
                return self._solve_by_propagation(grid, deadline)
            except _TimeUp:
                return _timeout(deadline)
        return self._solve_kept(grid, mode, limit, deadline)

    def _solve_kept(self, grid: Grid, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        """The puzzle on the kept solver (built on the clock when prepare() did not)."""
        key = self._key(grid)
        setup = self._taken_setup(key)
        kept = self._solvers.get(key)
        if kept is None or kept.retired is not None:
            # Only when prepare() was skipped (a subclass, a direct call) or for a fallback.
            try:
                setup = self._build_on_the_clock(key, deadline)
            except _TimeUp:
                return _timeout(deadline)
            kept = self._solvers[key]
        allowance = self.kept_allowance if kept.used and not kept.budgeted else None
        run = _MODES[mode]
        try:
            outcome = self._solve_on(
                kept, grid, lambda session: run(session, grid, limit), deadline, setup, allowance
            )
        except _OverAllowance as abandoned:
            # The kept solver went far off where a fresh one may not: a fresh one takes over
            # (built on the clock, unavoidably) and stays as the kept solver.
            try:
                fresh = self._build_on_the_clock(key, deadline)
            except _TimeUp:
                return _timeout(deadline)
            outcome = self._solve_on(
                self._solvers[key], grid, lambda s: run(s, grid, limit), deadline, fresh, None
            )
            outcome.stats.update(
                abandoned_conflicts=abandoned.conflicts,
                abandoned_sat_calls=abandoned.calls,
                abandoned_seconds=abandoned.seconds,
            )
        if mode is Mode.LEXMIN:
            outcome.stats["lexmin"] = "tightening"
        return outcome

    def _taken_setup(self, key: _SolverKey) -> _Setup | None:
        """What prepare() built for this puzzle, if it built this key (taken once)."""
        setup, self._setup = self._setup, None
        return setup if setup is not None and setup.key == key else None

    def _solve_by_propagation(self, grid: Grid, deadline: Deadline) -> Outcome:
        """Lex-min by the search over propagation on a solver with the row counts, which it
        consumes; when the search gives up, iterative tightening on the kept solver.

        Raises:
            _TimeUp: when the time runs out before a solver could be built.
        """
        key = self._key(grid, counts=True)
        setup = self._taken_setup(key)
        kept = self._solvers.get(key)
        if kept is None or kept.retired is not None:
            setup = self._build_on_the_clock(key, deadline)
            kept = self._solvers[key]
        walk = _Walk()
        start = time.perf_counter()
        try:
            outcome = self._solve_on(
                kept,
                grid,
                lambda session: _lexmin_by_propagation(session, grid, walk),
                deadline,
                setup,
                None,
            )
        except _PropagationFailed as failure:
            self._discard(key)
            outcome = self._solve_kept(grid, Mode.LEXMIN, 0, deadline)
            outcome.stats.update(
                lexmin="propagation, then tightening",
                propagation_gave_up=str(failure),
                propagation_seconds=time.perf_counter() - start,
                **walk_stats(walk, prefix="propagation_"),
            )
            return outcome
        kept.retired = kept.retired or "consumed"  # its unit clauses belong to this puzzle
        outcome.stats.update(lexmin="propagation", **walk_stats(walk))
        return outcome

    def _solve_on(
        self,
        kept: _KeptSolver,
        grid: Grid,
        run: Callable[[_Session], Outcome],
        deadline: Deadline,
        setup: _Setup | None,
        allowance: int | None,
    ) -> Outcome:
        """One attempt at the puzzle on one solver.

        Raises:
            _OverAllowance: past the allowance (the solver is then retired as "slow").
            _PropagationFailed: when the search by propagation gave up (carrying its session).
            BackendFailure: when the solver raised (the solver is then dropped).
        """
        kept.used = True
        before = kept.statistics()
        solve_start = time.perf_counter()
        session = _Session(kept, deadline, self._watchdog, allowance)
        try:
            with session:
                outcome = run(session)
        except _TimeUp as stop:
            outcome = _timeout(deadline, count=stop.count)
        except _OverAllowance as abandoned:
            kept.retired = "slow"
            abandoned.conflicts = kept.statistics().get("conflicts", 0) - before.get("conflicts", 0)
            abandoned.calls = session.calls
            abandoned.seconds = time.perf_counter() - solve_start
            raise
        except _PropagationFailed as failure:
            failure.session = session
            raise
        except Exception as error:
            self._discard_solver(kept)
            if is_solver_interrupt(error):
                raise KeyboardInterrupt from error
            raise BackendFailure(f"SAT solver {kept.name} failed: {error}") from error
        except BaseException:  # Ctrl-C between calls, ...: the solver may be mid-change
            self._discard_solver(kept)
            raise
        solve_seconds = time.perf_counter() - solve_start

        outcome.stats = {
            **self._stats(
                kept, before, kept.statistics(), session, setup=setup, solve_seconds=solve_seconds
            ),
            **outcome.stats,  # what the mode counted itself
        }
        if session.suspect:
            # Only answers of calls that finished were used; the solver itself is not trusted
            # again (the watchdog firing, even between calls, counts as an interrupt).
            kept.retired = "interrupted"
        return outcome

    def _discard(self, key: _SolverKey) -> None:
        kept = self._solvers.pop(key, None)
        if kept is not None:
            kept.delete()

    def _discard_solver(self, kept: _KeptSolver) -> None:
        for key, known in list(self._solvers.items()):
            if known is kept:
                self._discard(key)

    def _stats(
        self,
        kept: _KeptSolver,
        before: dict[str, int],
        after: dict[str, int],
        session: _Session,
        *,
        setup: _Setup | None,
        solve_seconds: float,
    ) -> dict[str, Any]:
        counters: dict[str, int] = {
            name: after[name] - before.get(name, 0)
            for name in ("conflicts", "decisions", "propagations")
            if name in after
        }
        stats: dict[str, Any] = {
            "variables": kept.top,
            "clauses": kept.clause_count + session.clauses_added,
            "sat_calls": session.calls,
            **counters,
            "build_seconds": 0.0 if setup is None else setup.seconds,
            "solve_seconds": solve_seconds,
            "solver": kept.name,
            "encoding": self.encoding,
            "amo": self.amo,
            "reused": setup is None,
        }
        if setup is not None and setup.rebuilt is not None:
            stats["rebuilt"] = setup.rebuilt  # "interrupted" or "slow": why the last one went
        return stats


def walk_stats(walk: _Walk, *, prefix: str = "") -> dict[str, int]:
    """The search by propagation's counters (prefixed when a fallback's stats sit beside)."""
    stats = {
        "propagate_calls": 0 if walk.session is None else walk.session.propagations,
        "refuted_by_propagation": walk.refuted,
        "cells_by_peers": walk.cells_by_peers,
        "backjumps": walk.backjumps,
    }
    if prefix and walk.session is not None:
        stats["sat_calls"] = walk.session.calls
    return {prefix + name: value for name, value in stats.items()}


def _timeout(deadline: Deadline, count: int | None = None) -> Outcome:
    return Outcome(
        Status.TIMEOUT, count=count, reason=f"no answer within {deadline.time_limit:g} s"
    )


def _given_assumptions(grid: Grid) -> list[int]:
    size = grid.size
    return [variable(cell, value, size) for cell, value in grid.givens().items()]


def _solve_any(session: _Session, grid: Grid, limit: int) -> Outcome:
    """One SAT call: the first completion the solver finds."""
    if not session.satisfiable(_given_assumptions(grid)):
        return _unsatisfiable()
    return Outcome(Status.SOLVED, values=tuple(decode_model(session.model(), grid.size)))


def _solve_lexmin(session: _Session, grid: Grid, limit: int) -> Outcome:
    """The row-major smallest completion by iterative tightening (see the module docstring)."""
    size = grid.size
    assumptions = _given_assumptions(grid)
    if not session.satisfiable(assumptions):
        return _unsatisfiable()
    model = session.model()
    fixed = list(grid.values)  # givens, then each blank cell once its value is final
    peer_values = grid.geometry.peer_getters
    proved = 0  # cells made final by an UNSAT answer (the others: by their fixed peers)
    for cell in grid.blanks():
        current = _value_in(model, cell, size)
        # While some smaller value is not held by a fixed peer, it may still fit: try it.
        while not set(range(1, current)).issubset(peer_values[cell](fixed)):
            tightened = [-variable(cell, value, size) for value in range(current, size + 1)]
            if not session.satisfiable(assumptions + tightened):
                proved += 1
                break
            model = session.model()
            current = _value_in(model, cell, size)
        fixed[cell] = current
        assumptions.append(variable(cell, current, size))
    return Outcome(Status.SOLVED, values=tuple(fixed), stats={"unsat_calls": proved})


class _PropagationFailed(Exception):
    """The row-major search by propagation gave up; the puzzle goes to iterative tightening."""

    session: _Session | None = None  # the attempt's session, for its counters


@dataclass
class _Walk:
    """What the search by propagation did, for the stats."""

    cells_by_peers: int = 0  # cells whose smaller values all sit in fixed peers
    refuted: int = 0  # values refuted by a conflict of unit propagation
    backjumps: int = 0  # dead ends, each undone by one solver call and its core
    committed: int = 0  # cells turned into unit clauses
    session: _Session | None = None  # the session it ran in (its calls and propagations)


def _lexmin_by_propagation(session: _Session, grid: Grid, walk: _Walk) -> Outcome:
    """The row-major smallest completion by a depth-first search over the solver's unit
    propagation (see the module docstring). Consumes the solver: the givens and the cells
    older than the window become unit clauses.

    Raises:
        _PropagationFailed: when a dead end reaches below the window or the backjump budget
            runs out; the solver is then unusable (its unit clauses may be wrong).
        _TimeUp: when the time budget runs out.
    """
    walk.session = session
    size = grid.size
    values = list(grid.values)
    for cell, value in grid.givens().items():
        session.add_clause([variable(cell, value, size)])
    blanks = grid.blanks()
    position_of = {cell: position for position, cell in enumerate(blanks)}
    peer_values = grid.geometry.peer_getters
    refuted: list[set[int]] = [set() for _ in blanks]
    window: list[int] = []  # the literals of the cells still assumed, oldest first
    window_cells = WINDOW_ROWS * size
    budget = size * size // 2
    position = 0
    while position < len(blanks):
        cell = blanks[position]
        held = set(peer_values[cell](values))
        tried = refuted[position]
        base = variable(cell, 0, size)
        for value in range(1, size + 1):
            if value in held or value in tried:
                continue
            # The cell's literal first: one false at level 0 fails before the window is
            # propagated again.
            if session.consistent([base + value, *window]):
                break
            tried.add(value)
            walk.refuted += 1
        else:
            walk.backjumps += 1
            if walk.backjumps > budget:
                raise _PropagationFailed(f"over {budget} backjumps")
            tried.clear()
            latest = _culprit(session, window, size)
            if latest is None:
                if walk.committed == 0:  # the dead end rests on the givens alone
                    return _unsatisfiable()
                raise _PropagationFailed("a dead end below the window")
            position = _undo(window, latest, values, refuted, position_of, size)
            continue
        if held.issuperset(range(1, value)):
            walk.cells_by_peers += 1
        values[cell] = value
        window.append(base + value)
        position += 1
        if len(window) > window_cells:
            session.add_clause([window.pop(0)])
            walk.committed += 1
    return Outcome(Status.SOLVED, values=tuple(values))


def _culprit(session: _Session, window: list[int], size: int) -> int | None:
    """At a dead end (every value of the next cell fails under the window): the index of the
    latest window literal in the core of one solver call on the window alone, which is UNSAT;
    None when that core holds no window literal (the dead end rests on the unit clauses).

    Raises:
        BackendFailure: when the solver finds a model that propagation had refuted.
    """
    if not window:
        return None
    if session.satisfiable(window):
        raise BackendFailure("the SAT solver found a model that unit propagation refuted")
    in_core = set(session.core())
    return max((index for index, literal in enumerate(window) if literal in in_core), default=None)


def _undo(
    window: list[int],
    latest: int,
    values: list[int],
    refuted: list[set[int]],
    position_of: dict[int, int],
    size: int,
) -> int:
    """Backjump to window[latest]: its value is refuted (the core shows that it fails with the
    window before it), every later cell is blank again and loses its refutations (they held
    under a prefix that is gone). Returns the position to resume at."""
    for literal in window[latest + 1 :]:
        cell = (literal - 1) // size
        values[cell] = BLANK
        refuted[position_of[cell]].clear()
    cell = (window[latest] - 1) // size
    del window[latest:]
    refuted[position_of[cell]].add(values[cell])
    values[cell] = BLANK
    return position_of[cell]


def _solve_count(session: _Session, grid: Grid, limit: int) -> Outcome:
    """Completions up to `limit`, each found one blocked by a clause guarded for this puzzle."""
    size = grid.size
    blanks = grid.blanks()
    kept = session.kept
    activation = kept.fresh_activation()
    assumptions = _given_assumptions(grid) + [activation]
    first: tuple[int, ...] | None = None
    count = 0
    try:
        while session.satisfiable(assumptions):
            values = decode_model(session.model(), size)
            first = first or tuple(values)
            count += 1
            if count == limit:
                break
            session.add_clause(
                [-activation] + [-variable(cell, values[cell], size) for cell in blanks]
            )
    except _TimeUp as stop:
        stop.count = count
        raise
    finally:
        kept.solver.add_clause([-activation])  # retire this puzzle's clauses for good
    if count == 0:
        return Outcome(Status.UNSATISFIABLE, count=0, reason="no completion keeps the givens")
    return Outcome(Status.SOLVED, values=first, count=count)


def _unsatisfiable() -> Outcome:
    return Outcome(Status.UNSATISFIABLE, reason="no completion keeps the givens")


_MODES = {Mode.ANY: _solve_any, Mode.LEXMIN: _solve_lexmin, Mode.COUNT: _solve_count}
