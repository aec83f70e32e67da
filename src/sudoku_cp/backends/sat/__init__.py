"""The `sat` backend: a CNF encoding solved by python-sat.

Read it in this order: `cnf` (the variables x(cell, value), the encodings, the base CNF of a
shape, DIMACS), `solvers` (which python-sat solver, `auto`), `kept` (a solver kept across
puzzles, the watchdog, one puzzle's calls under a budget), `modes` (any, lex-min by the shared
tightening loop, count), `propagation` (lex-min by a row-major search over unit propagation)
and `backend` (`SatBackend`, which ties them together). Importing the package loads no
python-sat module: the solvers are imported when a solver is built.
"""

from .backend import LEXMIN_METHODS, SatBackend
from .cnf import (
    AMO_ENCODINGS,
    DEFAULT_AMO,
    DEFAULT_ENCODING,
    ENCODINGS,
    BaseCnf,
    CountCnf,
    base_cnf,
    decode_model,
    row_count_cnf,
    variable,
    write_dimacs,
)
from .kept import KEPT_CONFLICT_ALLOWANCE
from .solvers import (
    AUTO_SOLVER,
    BIG_GRID_SIZE,
    BIG_GRID_SOLVER,
    DEFAULT_SOLVER,
    accepted_solvers,
    check_solver,
    solver_choices,
    solver_for,
)

__all__ = [
    "AMO_ENCODINGS",
    "AUTO_SOLVER",
    "BIG_GRID_SIZE",
    "BIG_GRID_SOLVER",
    "DEFAULT_AMO",
    "DEFAULT_ENCODING",
    "DEFAULT_SOLVER",
    "ENCODINGS",
    "KEPT_CONFLICT_ALLOWANCE",
    "LEXMIN_METHODS",
    "BaseCnf",
    "CountCnf",
    "SatBackend",
    "accepted_solvers",
    "base_cnf",
    "check_solver",
    "decode_model",
    "row_count_cnf",
    "solver_choices",
    "solver_for",
    "variable",
    "write_dimacs",
]
