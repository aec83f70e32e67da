"""The `minizinc` backend: the shipped model (`model.py`) run by a MiniZinc solver.

Each puzzle is one run of the MiniZinc driver (the `minizinc` package starts it): the model is
flattened with the puzzle's data and handed to the solver (`solver=NAME`, any that `minizinc
--solvers` lists; Gecode by default). Lex-min and any: the first solution of the model's search
(`model.LEXMIN_ARGUMENT` says why it is the lex-min); lex-min is asked only of solvers that
follow a search annotation (`ANNOTATION_SOLVERS`). Count: the solutions up to the limit
(`nr_solutions`). Time limits: the driver's own (`--time-limit`, flattening included); a run
that ends without the answer is TIMEOUT, with the solutions found so far in count mode.
"""

from __future__ import annotations

import functools
import shutil
import warnings
from datetime import timedelta
from typing import Any, ClassVar

from ...errors import BackendFailure, BackendOptionError
from ...grid import Grid
from ...result import Mode, Status
from ..base import Backend, BackendOption, Deadline, Outcome, TimeUp
from .model import LEXMIN_ARGUMENT, data_text, model_text

DEFAULT_SOLVER = "gecode"
# Solvers that follow the model's int_search annotation with no free search or restarts: the
# ones whose first solution is the lex-min.
ANNOTATION_SOLVERS = ("gecode", "chuffed", "org.gecode.gecode", "org.chuffed.chuffed")
INSTALL_HINT = (
    "pip install '.[minizinc]' from a sudoku-cp checkout (or pip install minizinc) and the "
    "MiniZinc toolchain "
    "(Debian: apt-get install minizinc, which brings Gecode)"
)


@functools.cache
def solver_names() -> tuple[str, ...]:
    """The solver ids and tags that the MiniZinc driver lists (`minizinc --solvers`)."""
    import minizinc

    driver = minizinc.default_driver
    return () if driver is None else tuple(sorted(driver.available_solvers()))


def _solver_choice(text: str) -> str:
    """A solver that `minizinc --solvers` lists, as written.

    Raises:
        BackendOptionError: for a solver the driver does not list, naming the ones it does.
    """
    names = solver_names()
    if text not in names:
        short = sorted(name for name in names if "." not in name)
        raise BackendOptionError(
            f"option 'solver': MiniZinc has no solver {text!r} "
            f"(minizinc --solvers lists: {', '.join(short) or 'none'})"
        )
    return text


class MiniZincBackend(Backend):
    """MiniZinc (the `minizinc` package and the MiniZinc toolchain): alldifferent on rows,
    columns and boxes, solved by any solver the driver lists; lex-min by the model's row-major
    smallest-value-first search.

    Raises:
        BackendOptionError: for a solver `minizinc --solvers` does not list.
    """

    name = "minizinc"
    description = (
        "MiniZinc model (alldifferent per row, column, box) run by any solver minizinc "
        "--solvers lists; lex-min: first solution of a row-major input_order/indomain_min search"
    )
    lexmin_reason = LEXMIN_ARGUMENT
    guarantees_lexmin = True
    requires = ("minizinc",)
    packages = ("minizinc",)
    setup_modules = ("minizinc",)
    install_hint = INSTALL_HINT
    options: ClassVar[tuple[BackendOption, ...]] = (
        BackendOption(
            "solver",
            "a solver id or tag that minizinc --solvers lists; lex-min needs one that follows "
            "search annotations (gecode, chuffed)",
            DEFAULT_SOLVER,
            parse=_solver_choice,
        ),
    )

    @classmethod
    def is_available(cls) -> bool:
        """The package and the `minizinc` driver on the PATH."""
        return super().is_available() and shutil.which("minizinc") is not None

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.solver_name: str = self.option_values["solver"]
        self._ready: tuple[Any, Any] | None = None  # the driver's Solver and the Model

    def prepare(self, grid: Grid) -> bool:
        """Import the package and load the model once, outside the clock."""
        if self._ready is not None:
            return False
        import minizinc

        model = minizinc.Model()
        model.add_string(model_text())
        self._ready = (minizinc.Solver.lookup(self.solver_name), model)
        return True

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        import minizinc

        if mode is Mode.LEXMIN and self.solver_name not in ANNOTATION_SOLVERS:
            raise BackendFailure(
                f"minizinc[solver={self.solver_name}] cannot give the lex-min: its first "
                f"solution follows the model's search only with {', '.join(ANNOTATION_SOLVERS[:2])}"
            )
        self.prepare(grid)
        assert self._ready is not None
        solver, model = self._ready
        instance = minizinc.Instance(solver, model)
        instance.add_string(data_text(grid))
        remaining = deadline.remaining()
        if remaining is not None and remaining < 0.001:
            raise TimeUp("before MiniZinc started")
        wanted = limit if mode is Mode.COUNT else 1
        with warnings.catch_warnings():
            # the Debian Gecode library overrides some globals, and the driver says so
            warnings.simplefilter("ignore", minizinc.error.MiniZincWarning)
            try:
                result = instance.solve(
                    time_limit=None if remaining is None else timedelta(seconds=remaining),
                    nr_solutions=wanted if mode is Mode.COUNT else None,
                )
            except minizinc.error.MiniZincError as error:
                raise BackendFailure(f"MiniZinc: {error}") from error
        stats = _stats(result.statistics, self.solver_name)
        found = result.solution if isinstance(result.solution, list) else [result.solution]
        found = [solution for solution in found if solution is not None]
        count = len(found) if mode is Mode.COUNT else None
        first = None if not found else _values(found[0].grid)
        if result.status is minizinc.Status.UNSATISFIABLE:
            return Outcome.unsatisfiable(
                f"MiniZinc ({self.solver_name}) proved that no completion exists",
                count=count,
                stats=stats,
            )
        complete = result.status is minizinc.Status.ALL_SOLUTIONS or len(found) >= wanted
        if first is None or not complete:
            raise TimeUp(count=count)
        return Outcome(Status.SOLVED, first, count, stats)


def _values(rows: list[list[int]]) -> tuple[int, ...]:
    return tuple(int(value) for row in rows for value in row)


def _stats(statistics: dict[str, Any], solver: str) -> dict[str, Any]:
    """The driver's counters that every solver reports, in our words."""
    stats: dict[str, Any] = {"solver": solver}
    for ours, theirs in (("nodes", "nodes"), ("failures", "failures")):
        if theirs in statistics:
            stats[ours] = int(statistics[theirs])
    for ours, theirs in (("build_seconds", "flatTime"), ("solve_seconds", "solveTime")):
        if isinstance(statistics.get(theirs), timedelta):
            stats[ours] = round(statistics[theirs].total_seconds(), 6)
    return stats
