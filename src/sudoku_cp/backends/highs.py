"""The `highs` backend: integer programming with HiGHS (`highspy`).

The model is the assignment MIP: a binary x(cell, value) per candidate, no objective, and as
rows over them (option `encoding`, the words of the `sat` and `exact` backends):

    extended  sum_v x(cell, v) = 1 for every cell, sum_{cell in unit} x(cell, v) = 1 for every
              unit and value (4 N^2 equality rows);
    minimal   sum_v x(cell, v) >= 1 and sum_{cell in unit} x(cell, v) <= 1.

A given is the lower bound 1 on its x(cell, value). Each puzzle gets a new HiGHS instance from
the shape's matrix, built once (`prepare`, outside the clock).

Lex-min (option `lexmin`): `tightening`, the shared loop (backends/lexmin.py), where "x(i) < s"
is the upper bound 0 on x(i, v) for v >= s, one feasibility MIP per question; or `staged`, one
MIP per blank cell in row-major order minimising that cell's value sum_v v x(i, v) with the
earlier cells fixed (`lexmin_by_stages`, whose docstring has the proof). Count:
`count_by_blocking`, blocking with the row sum_{blank i} x(i, s_i) <= K - 1. Any: one MIP.
Time limits: HiGHS's `time_limit`, the time left, before each run; a run that stops on it is a
TIMEOUT.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from typing import Any, ClassVar

from ..errors import BackendFailure
from ..grid import Grid, Shape, geometry
from ..result import Mode, Status
from .base import Backend, BackendOption, Deadline, Outcome, TimeUp
from .lexmin import Count, Questions, answer

ENCODINGS = ("extended", "minimal")
LEXMIN_METHODS = ("auto", "staged", "tightening")
AUTO_LEXMIN = "tightening"  # docs/decisions.md: measured against staged

LEXMIN_ARGUMENT = (
    "staged: for each blank cell in row-major order, a MIP minimising that cell's value with "
    "every earlier cell fixed to its minimum; by induction each minimum is the lex-min's value "
    "there (HiGHS proves each optimum, gap 0); tightening: the shared loop asks 'a completion "
    "with this prefix and a smaller value here?' until the answer is no, then fixes the cell"
)


@dataclass(frozen=True)
class _Matrix:
    """One shape's rows, row-wise: what every puzzle's HiGHS instance starts from."""

    size: int
    lower: tuple[float, ...]
    upper: tuple[float, ...]
    starts: tuple[int, ...]
    indices: tuple[int, ...]


def _column(size: int, cell: int, value: int) -> int:
    return cell * size + value - 1


@functools.cache
def _matrix(size: int, box: Shape, encoding: str) -> _Matrix:
    """The rows of the assignment model of the shape: per cell, then per unit and value."""
    cells = [
        [_column(size, cell, value) for value in range(1, size + 1)] for cell in range(size**2)
    ]
    units = [
        [_column(size, cell, value) for cell in unit]
        for unit in geometry(size, box).units
        for value in range(1, size + 1)
    ]
    inf = float("inf")
    extended = encoding == "extended"
    lower = [1.0] * len(cells) + [1.0 if extended else -inf] * len(units)
    upper = [1.0 if extended else inf] * len(cells) + [1.0] * len(units)
    starts, indices = [0], []
    for row in cells + units:
        indices += row
        starts.append(len(indices))
    return _Matrix(size, tuple(lower), tuple(upper), tuple(starts), tuple(indices))


_banner_said = False


def _new_highs() -> Any:
    """A quiet HiGHS instance. HiGHS prints its banner on standard output at the first instance
    of a process, before any option can be set: that one is made with standard output closed."""
    global _banner_said
    import highspy

    make: Any = highspy.Highs  # untyped in highspy
    if _banner_said:
        highs = make()
    else:
        saved = os.dup(1)
        try:
            with open(os.devnull, "w") as sink:
                os.dup2(sink.fileno(), 1)
                highs = make()
        finally:
            os.dup2(saved, 1)
            os.close(saved)
        _banner_said = True
    highs.setOptionValue("output_flag", False)
    highs.setOptionValue("threads", 1)
    highs.setOptionValue("mip_rel_gap", 0.0)
    return highs


class _Puzzle:
    """One puzzle's HiGHS instance: the oracle of backends/lexmin.py, and the staged MIPs."""

    def __init__(self, matrix: _Matrix, grid: Grid, deadline: Deadline) -> None:
        import highspy
        import numpy as np

        self.np = np
        self.size = size = matrix.size
        self.deadline = deadline
        self.blanks = grid.blanks()
        self.highs = highs = _new_highs()
        columns = size**3
        lp = highspy.HighsLp()
        lp.num_col_ = columns
        lp.num_row_ = len(matrix.lower)
        lp.col_cost_ = np.zeros(columns)
        lower = np.zeros(columns)
        for cell, value in grid.givens().items():
            lower[_column(size, cell, value)] = 1.0
        lp.col_lower_ = lower  # assigned whole: the attribute hands out a copy
        lp.col_upper_ = np.ones(columns)
        lp.row_lower_ = np.array(matrix.lower)
        lp.row_upper_ = np.array(matrix.upper)
        lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
        lp.a_matrix_.start_ = np.array(matrix.starts, dtype=np.int32)
        lp.a_matrix_.index_ = np.array(matrix.indices, dtype=np.int32)
        lp.a_matrix_.value_ = np.ones(len(matrix.indices))
        lp.integrality_ = [highspy.HighsVarType.kInteger] * columns
        highs.passModel(lp)
        self.solution: Any = None  # the last completion's x, as a cells x values array
        self.runs = self.nodes = self.iterations = 0

    def _run(self) -> bool:
        """Solve the MIP as it stands: True for a solution (read into `solution`), False for
        none.

        Raises:
            TimeUp: when HiGHS stopped on the time left.
            BackendFailure: for any other stop.
        """
        import highspy

        remaining = self.deadline.remaining()
        if remaining is not None and remaining <= 0:
            raise TimeUp
        self.highs.setOptionValue("time_limit", float("inf") if remaining is None else remaining)
        self.highs.run()
        self.runs += 1
        info = self.highs.getInfo()
        self.nodes += max(0, int(info.mip_node_count))
        self.iterations += max(0, int(info.simplex_iteration_count))
        status = self.highs.getModelStatus()
        if status == highspy.HighsModelStatus.kOptimal:
            values = self.np.array(self.highs.getSolution().col_value)
            self.solution = values.reshape(self.size**2, self.size)
            return True
        if status in (
            highspy.HighsModelStatus.kInfeasible,
            highspy.HighsModelStatus.kUnboundedOrInfeasible,
        ):
            return False
        if status == highspy.HighsModelStatus.kTimeLimit:
            raise TimeUp
        raise BackendFailure(f"HiGHS stopped: {self.highs.modelStatusToString(status)}")

    def satisfiable(self, cell: int | None = None, below: int = 0) -> bool:
        if cell is None:
            return self._run()
        first, last = _column(self.size, cell, below), _column(self.size, cell, self.size)
        count = last - first + 1
        np = self.np
        chosen = np.arange(first, last + 1, dtype=np.int32)
        self.highs.changeColsBounds(count, chosen, np.zeros(count), np.zeros(count))
        try:
            return self._run()
        finally:
            self.highs.changeColsBounds(count, chosen, np.zeros(count), np.ones(count))

    def value(self, cell: int) -> int:
        row = self.solution[cell]
        chosen = [value for value in range(self.size) if row[value] > 0.5]
        if len(chosen) != 1:
            raise BackendFailure(f"the HiGHS solution gives cell {cell} {len(chosen)} values")
        return chosen[0] + 1

    def fix(self, cell: int, value: int) -> None:
        self.highs.changeColBounds(_column(self.size, cell, value), 1.0, 1.0)

    def minimum(self, cell: int) -> int:
        """The smallest value `cell` takes in a completion with every fixed cell kept: the MIP
        minimising sum_v v x(cell, v), proved optimal.

        Raises:
            TimeUp, BackendFailure: see `_run`.
        """
        np = self.np
        size = self.size
        chosen = np.arange(_column(size, cell, 1), _column(size, cell, size) + 1, dtype=np.int32)
        self.highs.changeColsCost(size, chosen, np.arange(size, dtype=np.float64))
        try:
            if not self._run():
                raise BackendFailure("HiGHS found no completion where one was found before")
        finally:
            self.highs.changeColsCost(size, chosen, np.zeros(size))
        return self.value(cell)

    def completion(self) -> tuple[int, ...]:
        return tuple(self.value(cell) for cell in range(self.size**2))

    def block(self, values: tuple[int, ...]) -> None:
        """sum_{blank i} x(i, values[i]) <= K - 1."""
        np = self.np
        columns = np.array(
            [_column(self.size, cell, values[cell]) for cell in self.blanks], dtype=np.int32
        )
        held = len(columns)
        self.highs.addRow(-float("inf"), held - 1.0, held, columns, np.ones(held))

    def stats(self) -> dict[str, int]:
        return {"mip_runs": self.runs, "nodes": self.nodes, "simplex_iterations": self.iterations}


def lexmin_by_stages(grid: Grid, puzzle: _Puzzle, questions: Questions) -> tuple[int, ...] | None:
    """The row-major smallest completion (None when there is none), one MIP per blank cell.

    Let L be the lex-min. At blank cell i (row-major), every earlier cell is fixed to L's value
    (induction). The MIP "minimise x(i) over the completions that keep the prefix" has L among
    its feasible points, and any completion with x(i) < L(i) and this prefix would be
    lexicographically smaller than L; so its proved optimum is L(i): fix the cell to it. A
    cell needs no MIP when the last completion's value there has every smaller value held by a
    fixed peer (that completion keeps the prefix, so its value is the smallest possible).

    Raises:
        TimeUp: from a MIP stopped by the time limit.
    """
    questions.calls += 1
    if not puzzle.satisfiable():
        return None
    questions.yes += 1
    fixed = list(grid.values)
    peer_values = grid.geometry.peer_getters
    for cell in grid.blanks():
        current = puzzle.value(cell)
        if current > 1 and not set(range(1, current)).issubset(peer_values[cell](fixed)):
            questions.calls += 1
            questions.yes += 1
            current = puzzle.minimum(cell)
        else:
            questions.skipped += 1
        fixed[cell] = current
        puzzle.fix(cell, current)
    return tuple(fixed)


class HighsBackend(Backend):
    """HiGHS (`highspy`), integer programming: a binary per (cell, value) with equality rows
    (or inequalities); lex-min by the shared tightening loop or by one MIP per cell.

    Raises:
        BackendOptionError: for an unknown encoding or lex-min method.
    """

    name = "highs"
    description = (
        "HiGHS MIP (highspy): a binary per cell and value, equality rows; lex-min by the "
        "shared tightening loop or one MIP per cell minimising its value"
    )
    lexmin_reason = LEXMIN_ARGUMENT
    guarantees_lexmin = True
    requires = ("highspy",)
    packages = ("highspy",)
    setup_modules = ("highspy", "numpy")
    install_hint = "pip install '.[highs]' from a sudoku-cp checkout (or pip install highspy)"
    options: ClassVar[tuple[BackendOption, ...]] = (
        BackendOption(
            "lexmin",
            "tightening: the shared loop of feasibility MIPs; staged: one MIP per blank cell "
            f"minimising its value; auto: {AUTO_LEXMIN}",
            "auto",
            choices=LEXMIN_METHODS,
        ),
        BackendOption(
            "encoding",
            "extended: exactly one value per cell and each value exactly once per unit "
            "(equality rows); minimal: at least one per cell, at most once per unit",
            "extended",
            choices=ENCODINGS,
        ),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.encoding: str = self.option_values["encoding"]
        chosen = self.option_values["lexmin"]
        self.lexmin: str = AUTO_LEXMIN if chosen == "auto" else chosen
        self._prepared: set[tuple[int, Shape]] = set()

    def prepare(self, grid: Grid) -> bool:
        """Import HiGHS and build the shape's matrix once, outside the clock."""
        key = (grid.size, grid.box)
        if key in self._prepared:
            return False
        _new_highs()  # the import, and the banner HiGHS prints once
        _matrix(grid.size, grid.box, self.encoding)
        self._prepared.add(key)
        return True

    def _solve(self, grid: Grid, *, mode: Mode, limit: int, deadline: Deadline) -> Outcome:
        puzzle = _Puzzle(_matrix(grid.size, grid.box, self.encoding), grid, deadline)
        questions, counted = Questions(), Count()
        values: tuple[int, ...] | None = None
        timed_out = False
        staged = self.lexmin == "staged"
        try:
            values = answer(
                grid,
                puzzle,
                mode,
                limit,
                deadline,
                questions,
                counted,
                lexmin=(lambda: lexmin_by_stages(grid, puzzle, questions)) if staged else None,
            )
        except TimeUp:
            timed_out = True
        stats: dict[str, Any] = {
            "encoding": self.encoding,
            "lexmin": self.lexmin,
            **questions.stats(),
            **puzzle.stats(),
        }
        count = counted.count if mode is Mode.COUNT else None
        if timed_out:
            return Outcome.timeout(deadline, count=count, stats=stats)
        if values is None:
            return Outcome.unsatisfiable(
                "HiGHS proved that no completion exists", count=count, stats=stats
            )
        return Outcome(Status.SOLVED, values, count, stats)
