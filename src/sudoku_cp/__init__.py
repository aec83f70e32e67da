"""sudoku-cp: lexicographically smallest Sudoku completions by search, CP-SAT and SAT.

The Python API (documented in docs/python-api.md): `solve`, `solve_many`, `crosscheck`, `bench`
and `load_results`; errors are the typed exceptions of `sudoku_cp.errors`. Every answer these
return has been checked by `sudoku_cp.verify`, the one definition of a correct answer.
"""

from typing import TYPE_CHECKING

from ._version import __version__

if TYPE_CHECKING:  # what type checkers and editors see; at run time, __getattr__ below
    from .api import CrosscheckReport, bench, crosscheck, solve, solve_many
    from .configurations import Configuration
    from .errors import ArgumentError, SudokuError
    from .grid import Grid, geometry
    from .judging import Answer
    from .result import Mode, RunStatus, SolveResult, Status, Verdict
    from .results_log.reader import Results, load_results

# The API is loaded on first use (PEP 562): `import sudoku_cp` and the command line, which imports
# only what each command needs, do not pay for the engine, the results log and their imports.
_EXPORTS = {
    "CrosscheckReport": "api",
    "bench": "api",
    "crosscheck": "api",
    "solve": "api",
    "solve_many": "api",
    "Configuration": "configurations",
    "ArgumentError": "errors",
    "SudokuError": "errors",
    "Grid": "grid",
    "geometry": "grid",
    "Mode": "result",
    "RunStatus": "result",
    "SolveResult": "result",
    "Status": "result",
    "Verdict": "result",
    "Results": "results_log.reader",
    "load_results": "results_log.reader",
    "Answer": "judging",
}


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'sudoku_cp' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value  # once loaded, an ordinary attribute
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = ["__version__", *sorted(_EXPORTS)]
