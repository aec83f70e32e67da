"""The results log of `crosscheck` and `bench` (and the Python API): JSON Lines, append-only.

- `records`: what a log holds, as types (`Header`, `PuzzleEntry`, `Run`), and the line of
  `solve --format jsonl` (`AnswerLine`); each to and from JSON, validated.
- `reader`: `read_log`, the one reader of a log file, and `load_results`, logs read back as
  one `Results` (for reports, plots and the Python API).
- `resume`: what `--resume` checks before it appends (the settings, the finished puzzles).
- `writer`: `ResultsLog`, the locked, append-only writer.

The format is documented in docs/results-log.md.
"""

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # what type checkers and the API reference see; at run time, __getattr__
    from .reader import RUN_COLUMNS, Results, load_results, read_log
    from .records import (
        RESULTS_FORMAT,
        RESULTS_VERSION,
        AnswerLine,
        Header,
        PuzzleEntry,
        Run,
    )
    from .resume import make_header
    from .writer import ResultsLog

# Loaded on first use (PEP 562): the low layers import `records` alone, without the writer.
_EXPORTS = {
    "RUN_COLUMNS": "reader",
    "Results": "reader",
    "load_results": "reader",
    "read_log": "reader",
    "RESULTS_FORMAT": "records",
    "RESULTS_VERSION": "records",
    "AnswerLine": "records",
    "Header": "records",
    "PuzzleEntry": "records",
    "Run": "records",
    "make_header": "resume",
    "ResultsLog": "writer",
}


def __getattr__(name: str) -> object:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'sudoku_cp.results_log' has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f".{module}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(__all__)


__all__ = sorted(_EXPORTS)
