"""Which python-sat solver a `sat` backend runs: names, aliases, the refused ones, `auto`.

The option `solver` takes a python-sat name or alias (`g4` is glucose4) or `auto`, which picks
by grid size (`solver_for`). A solver must take assumptions, answer repeated solve() calls and
have a way to stop a call (interrupt(), or conflict budgets): the ones without are refused with
the reason (`REFUSED_SOLVERS`). The search by propagation runs only on solvers whose
propagate() it trusts (`PROPAGATING_SOLVERS`). Listing the names imports python-sat's name
table only, never a solver.

    check_solver("g4")        # 'glucose4'
    solver_for("auto", 25)    # BIG_GRID_SOLVER
"""

from __future__ import annotations

import functools
from collections.abc import Mapping

from ...errors import BackendOptionError

AUTO_SOLVER = "auto"
# `auto` takes DEFAULT_SOLVER below BIG_GRID_SIZE and BIG_GRID_SOLVER from there: Glucose reads an
# interrupt (and a conflict budget) only when it restarts, which on big sparse grids can be
# long in coming; MiniSat reads them before every decision.
DEFAULT_SOLVER = "glucose3"
CARDINALITY_DEFAULT_SOLVER = "gluecard3"  # glucose3 with cardinality constraints, for amo=native
BIG_GRID_SIZE = 25
# MiniSat with cardinality constraints of its own (MiniCard), which amo=auto then uses
BIG_GRID_SOLVER = "minicard"

# Solvers python-sat ships that this backend refuses, and why. The time limit needs interrupt()
# or conflict budgets, and the reused solver relies on assumptions and repeated solve() calls.
REFUSED_SOLVERS: Mapping[str, str] = {
    "kissat404": "ignores assumptions and does not support incremental solve() calls",
    "lingeling": "has no solve_limited() or interrupt() in python-sat, so no time limit",
    "cryptosat": "has no interrupt() in python-sat, so no time limit (and needs pycryptosat)",
}

# Solvers with no interrupt() in python-sat but with conflict budgets: a timed call runs in
# slices of conflicts, the clock read between slices.
BUDGETED_SOLVERS = frozenset({"cadical103", "cadical153", "cadical195", "cadical300"})

# The solvers with cardinality constraints of their own ("at most k of these literals"), which
# amo=native needs.
CARDINALITY_SOLVERS = frozenset({"minicard", "gluecard3", "gluecard4"})

# The solvers whose propagate() the search by propagation trusts: a conflict it reports must be
# a real one. Not CaDiCaL: its propagate() has reported conflicts after a solve() that were not
# there, and cadical103 has no propagate() at all.
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


def solver_for(name: str, size: int, *, cardinality: bool = False) -> str:
    """The solver a grid of this size runs on: the named one, or the `auto` choice (with
    `cardinality`, one with cardinality constraints: Glucose's gluecard3 below BIG_GRID_SIZE)."""
    if name != AUTO_SOLVER:
        return name
    if size >= BIG_GRID_SIZE:
        return BIG_GRID_SOLVER
    return CARDINALITY_DEFAULT_SOLVER if cardinality else DEFAULT_SOLVER


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


def constructor_name(canonical: str) -> str:
    """A name `Solver(name=...)` takes: it wants a listed alias, and 'minisatgh' is only listed
    as 'minisat-gh'."""
    from pysat.solvers import SolverNames

    names: tuple[str, ...] = getattr(SolverNames, canonical)
    return canonical if canonical in names else names[-1]
