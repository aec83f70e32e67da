"""The exception family of sudoku-cp.

Malformed input raises; a well-formed but impossible puzzle (two equal givens in a unit) is data:
`Grid.conflicts()` lists the clashes and every backend answers it with `UNSATISFIABLE`.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator


class SudokuError(Exception):
    """Root of every error sudoku-cp raises on purpose."""


class GridShapeError(SudokuError, ValueError):
    """A size or box shape that no Sudoku has (a prime size, boxes that do not tile the grid)."""


class GridParseError(SudokuError, ValueError):
    """Text that is not a puzzle; carries where the problem is (source, line, column)."""

    def __init__(
        self,
        message: str,
        *,
        source: str | None = None,
        line: int | None = None,
        column: int | None = None,
    ) -> None:
        self.message = message
        self.source = source
        self.line = line
        self.column = column
        super().__init__(self.located())

    def located(self) -> str:
        """The message prefixed with `source:line:column:` (the parts that are known)."""
        where = [str(part) for part in (self.source, self.line, self.column) if part is not None]
        return f"{':'.join(where)}: {self.message}" if where else self.message


class UnknownBackendError(SudokuError, KeyError):
    """A backend name that is not registered; the message lists the choices."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


class BackendUnavailableError(SudokuError):
    """A registered backend whose solver package is not installed."""


class BackendOptionError(SudokuError, ValueError):
    """An option a backend does not accept (an unknown SAT solver name, a bad worker count)."""


class ResultsFileError(SudokuError, ValueError):
    """A results file that cannot be read, written or continued (another run's settings or
    input, or not a sudoku-cp results file)."""


class BackendFailure(SudokuError, RuntimeError):
    """The native solver misbehaved (an unknown status, a crash); never a wrong answer."""


class ExecutorError(SudokuError, ValueError):
    """An executor that cannot run: an unknown name, a missing extra, a scheduler gone."""


class ArgumentError(SudokuError, ValueError):
    """An argument out of its range: a mode, a count limit, a time limit, a number of jobs."""


class InputError(SudokuError, ValueError):
    """Input that holds no puzzle to run: every source unreadable, or a bad line where a
    benchmark needs clean data."""


class ConfigurationError(SudokuError, ValueError):
    """A configuration that cannot be run: bad syntax, an unknown option, a repeated label."""


class BenchError(SudokuError, ValueError):
    """Input or settings that cannot be benchmarked (a bad puzzle, two sets with one name)."""


class PlotError(SudokuError, ValueError):
    """A plot that the results cannot make (a scatter of a backend that is not there)."""


class PlotUnavailableError(SudokuError):
    """matplotlib, the optional extra `plot`, is not installed."""


class DataSetError(SudokuError):
    """A puzzle set that cannot be had: unknown name, hash mismatch, refused or failed download."""


class GenerateError(SudokuError, ValueError):
    """A generation request that cannot be met: a bad givens range, a kind that does not exist."""


class CheckerUnavailableError(SudokuError):
    """Certificates asked for without what makes or checks them: the proof checker (dratify)
    or its native engine missing, or a solver that cannot log proofs."""


def is_solver_interrupt(error: BaseException) -> bool:
    """Whether an error from a python-sat solver call is its form of Ctrl-C: its C solvers catch
    SIGINT during a call and raise `pysolvers.error: Caught keyboard interrupt` instead."""
    return "keyboard interrupt" in str(error).lower()


@contextlib.contextmanager
def solver_interrupts() -> Iterator[None]:
    """Around a python-sat call made outside the sat backend (the generator's uniqueness
    questions, the certifier's proof solver): Ctrl-C during the call comes out as
    KeyboardInterrupt, so the command ends with its one line and exit 130, not a traceback."""
    try:
        yield
    except Exception as error:
        if is_solver_interrupt(error):
            raise KeyboardInterrupt from error
        raise
