"""sudoku-cp: lexicographically smallest Sudoku completions by search, CP-SAT and SAT."""

from .errors import SudokuError
from .grid import Grid, geometry
from .result import Mode, SolveResult, Status

__version__ = "0.1.0"
__all__ = ["Grid", "Mode", "SolveResult", "Status", "SudokuError", "geometry", "__version__"]
