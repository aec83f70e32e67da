"""sudoku-cp: lexicographically smallest Sudoku completions by search, CP-SAT and SAT.

The Python API (see the README's "Python API"): `solve`, `solve_many`, `crosscheck`, `bench`
and `load_results`; errors are the typed exceptions of `sudoku_cp.errors`.
"""

__version__ = "0.1.0"

from .api import Answer, CrosscheckReport, bench, crosscheck, solve, solve_many  # noqa: E402
from .errors import SudokuError  # noqa: E402
from .grid import Grid, geometry  # noqa: E402
from .result import Mode, SolveResult, Status  # noqa: E402
from .results import Results, load_results  # noqa: E402

__all__ = ["Answer", "CrosscheckReport", "Grid", "Mode", "Results", "SolveResult", "Status",
           "SudokuError", "__version__", "bench", "crosscheck", "geometry", "load_results",
           "solve", "solve_many"]
